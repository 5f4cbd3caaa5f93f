import { useLingui } from '@lingui/react/macro';
import { SectionTabs } from '../../../components/section-tabs';

/** The installation's settings (admins): the general ones at /settings, the services at /settings/services. */
export function SettingsTabs() {
  const { t } = useLingui();
  return (
    <SectionTabs
      label={t`Settings section`}
      tabs={[
        { href: '/settings', label: t`General` },
        { href: '/settings/services', label: t`Services` },
      ]}
    />
  );
}
