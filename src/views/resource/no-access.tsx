import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { useSession } from '../../api/session';
import { allows, type Policy } from '../../contract/permissions';
import styles from './resource.module.css';

/**
 * A page shown only to whom the server would answer (spec §6: a team member's role may not open a
 * module): anyone else reads why there is nothing here, instead of a list that fails to load.
 */
export function Allowed({ policy, title, children }: { policy: Policy; title: MessageDescriptor; children: ReactNode }) {
  const { i18n } = useLingui();
  const { user } = useSession();
  if (allows(policy, user)) return children;
  return (
    <section className={styles.page}>
      <h1 className={styles.title}>{i18n._(title)}</h1>
      <p className={styles.problem} role="alert">
        <Trans>Your role does not give you access to this part of the website. The website’s owner can change your role.</Trans>
      </p>
    </section>
  );
}
