import { Trans } from '@lingui/react/macro';
import { useParams } from 'wouter';
import { BackLink } from '../resource/back-link';

/** Back from a CMS module to the website's CMS dashboard (/cms/{id}). */
export function CmsBackLink() {
  const { websiteId = '' } = useParams<{ websiteId: string }>();
  return (
    <BackLink href={`/cms/${websiteId}`}>
      <Trans>CMS dashboard</Trans>
    </BackLink>
  );
}
