import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Pencil } from 'lucide-react';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useId, useMemo, type ReactNode } from 'react';
import { Link } from 'wouter';
import { useSession } from '../../api/session';
import { AddressBreaks } from '../../components/address-breaks';
import buttonStyles from '../../components/form/form.module.css';
import { allows } from '../../contract/permissions';
import { titleOf } from '../../contract/resource';
import type { Row } from '../../db/resource-store';
import { resourceText } from '../../api/resource-text';
import { SYNCED_EVENT } from '../../db/sync-messages';
import { editorMachine } from '../../machines/editor.machine';
import { storeActors } from '../../machines/store-actors';
import { cellText } from './column-text';
import { LoadProblem, OfflineNote } from './offline-note';
import { BackLink } from './back-link';
import styles from './resource.module.css';
import { optionSources, type ResourceScreen } from './screen';
import { useOptionLists } from './use-option-lists';
import { useResourceStore } from './store-context';
import { useBoundResource } from './use-bound-resource';
import { readAgain, useLiveRecord } from './use-live-record';
import { Loading } from './loading';

interface ResourceRecordPageProps {
  screen: ResourceScreen;
  id: string;
  /** Where "back" leads: the list this record was opened from; none where the record is the person's home. */
  back?: { href: string; label: MessageDescriptor };
  /** Where editing happens; none hides the button. */
  edit?: string;
  /** What the page shows above the record's fields: what a person opens it for (a website's modules). */
  renderLead?: (row: Row) => ReactNode;
  /** What the page shows below the record's fields (its websites, actions of its own). */
  children?: (row: Row, reload: () => void) => ReactNode;
}

/** A record's own page (/users/{id}, /partners/{id}): its fields as the list's columns show them, and what the module adds. */
export function ResourceRecordPage({ screen, id, back, edit, renderLead, children }: ResourceRecordPageProps) {
  const { i18n } = useLingui();
  const { user } = useSession();
  const titleId = useId();
  const resource = useBoundResource(screen.resource);
  const store = useResourceStore();
  // Read as a form reads its record (cache first, then the server), and never saved from here.
  const machine = useMemo(() => editorMachine.provide({ actors: storeActors(store) }), [store]);
  const actor = useActorRef(machine, { input: { resource, id, blank: {} } });
  useLiveRecord(actor);
  const row = useSelector(actor, (snapshot) => snapshot.context.loaded);
  const cachedAt = useSelector(actor, (snapshot) => (snapshot.matches({ editing: { refresh: 'offline' } }) ? snapshot.context.cachedAt : null));
  const error = useSelector(actor, (snapshot) => snapshot.context.loadError);
  const loading = useSelector(actor, (snapshot) => snapshot.matches('loading'));
  const reload = useCallback(() => readAgain(actor), [actor]);
  useEffect(() => {
    window.addEventListener(SYNCED_EVENT, reload);
    return () => window.removeEventListener(SYNCED_EVENT, reload);
  }, [reload]);
  const sources = useMemo(() => optionSources(...screen.columns.map((column) => (column.format === 'lookup' ? column.source : undefined))), [screen]);
  const wanted = useMemo(() => {
    const ids: Record<string, string[]> = {};
    for (const column of screen.columns) if (column.format === 'lookup' && typeof row?.[column.key] === 'string') (ids[column.source.resource.name] ??= []).push(row[column.key] as string);
    return ids;
  }, [screen, row]);
  const { lists: options } = useOptionLists(sources, wanted);

  return (
    <section className={styles.page} aria-labelledby={titleId}>
      {back && <BackLink href={back.href}>{i18n._(back.label)}</BackLink>}
      <div className={styles.head}>
        <h1 id={titleId} className={styles.title}>
          {row ? <AddressBreaks text={titleOf(resource, row)} /> : i18n._(resource.label.one)}
        </h1>
        {row && edit && allows(resource.access.update, user) && (
          <Link href={edit} className={`${buttonStyles.button} ${buttonStyles.primary}`}>
            <Pencil aria-hidden size={18} />
            <Trans>Edit</Trans>
          </Link>
        )}
      </div>
      {cachedAt !== null && (
        <p className={styles.age} role="status">
          <OfflineNote since={cachedAt} />
        </p>
      )}
      {error && !row && <LoadProblem failed={resourceText(resource, 'loadFailed')} reason={error} onRetry={reload} />}
      {!row && loading && (
        <Loading />
      )}
      {row && (
        <>
          {renderLead?.(row)}
          <dl className={`${styles.card} ${styles.details}`}>
            {screen.columns.map((column) => (
              <div key={column.key} className={styles.detail}>
                <dt>{i18n._(column.label)}</dt>
                <dd>
                  <AddressBreaks text={cellText(column, row, options, i18n) || '–'} />
                </dd>
              </div>
            ))}
          </dl>
          {children?.(row, reload)}
        </>
      )}
    </section>
  );
}
