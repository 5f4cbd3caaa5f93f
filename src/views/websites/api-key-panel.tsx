import { Trans, useLingui } from '@lingui/react/macro';
import { BookOpen, KeyRound, Power, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { z } from 'zod/mini';
import { call } from '../../api/action';
import { ApiError, request } from '../../api/request';
import { ifMatch } from '../../api/send';
import { useConfirm, useToast } from '../../machines/feedback';
import { Button } from '../../components/form/button';
import { messages } from '../../contract/messages';
import { fillPath } from '../../contract/resource';
import { DELIVERY_REFERENCE_PATH } from '../../contract/server-pages';
import { apiKeys, toggleApiKey } from '../../contract/resources/websites';
import styles from '../resource/resource.module.css';
import { ShownOnce } from './shown-once';
import { useBusyAction } from '../resource/use-busy-action';
import { useServerRead } from '../resource/use-server-read';

const KeySchema = apiKeys.entity;
type Key = z.infer<typeof KeySchema>;

/**
 * A website's delivery API key (spec §7 API key): made, shown whole exactly once, switched off
 * and on, deleted. These talk to the server directly: a key that exists only on this device would
 * be no key, and its one showing cannot wait for a connection.
 */
export function ApiKeyPanel({ websiteId }: { websiteId: string }) {
  const { t } = useLingui();
  const toast = useToast();
  const { confirm, confirmDelete } = useConfirm();
  const path = fillPath(apiKeys.paths.item, { id: websiteId });
  const [key, setKey] = useServerRead(path, KeySchema);
  const [revealed, setRevealed] = useState<string | null>(null);
  const { busy, act } = useBusyAction();



  const create = () =>
    act(async () => {
      if (key && !(await confirm({ title: t`New API key`, message: t`The current key stops working at once. Make a new one?`, confirmText: t`Make a new key`, cancelText: t`Cancel`, type: 'warning' }))) return;
      const answer = await request<Key>(path, { method: 'POST', body: {}, fallback: messages.requestFailed });
      setKey(answer.data);
      setRevealed(answer.data.key ?? null);
      // A retried request's answer leaves the key out (it is never kept): its message says what to do.
      if (!answer.data.key && answer.message) toast.info(answer.message);
    });
  const toggle = () =>
    act(async () => {
      try {
        const answer = await call(toggleApiKey, { params: { id: websiteId } }, { headers: { 'if-match': ifMatch(key!.version) } });
        setKey(answer.data);
        if (answer.message) toast.info(answer.message);
      } catch (error) {
        // Switched elsewhere meanwhile: the key as it is now shows beside the message.
        const current = error instanceof ApiError && error.status === 409 ? (error.details as { data?: Key } | undefined)?.data : undefined;
        if (current) setKey(current);
        throw error;
      }
    });
  const remove = () =>
    act(async () => {
      if (!key || !(await confirmDelete(t`the API key ${key.prefix}…`))) return;
      await request(path, { method: 'DELETE', headers: { 'if-match': ifMatch(key.version) }, fallback: messages.requestFailed });
      setKey(null);
      setRevealed(null);
    });

  return (
    <section className={`${styles.card} ${styles.stack}`} aria-labelledby="api-key-title">
      <h2 id="api-key-title" className={styles.subtitle}>
        <Trans>Delivery API key</Trans>
      </h2>
      <p className={styles.muted}>
        <Trans>The website reads its published content with this key, sent as the X-API-Key header.</Trans>
      </p>
      {/* The server's own page, not one of the app's: a new tab, where the app stays as it was. */}
      <a href={DELIVERY_REFERENCE_PATH} target="_blank" rel="noopener noreferrer" className={styles.link}>
        <BookOpen aria-hidden size={18} />
        <Trans>Delivery API reference</Trans>
      </a>
      {key === undefined && (
        <p className={styles.muted}>
          <Trans>The key can be seen and changed only with a connection.</Trans>
        </p>
      )}
      {key === null && (
        <p>
          <Trans>This website has no API key yet.</Trans>
        </p>
      )}
      {key && (
        <p>
          <code>{key.prefix}…</code> <span className={styles.badge}>{key.isActive ? <Trans>Active</Trans> : <Trans>Switched off</Trans>}</span>
        </p>
      )}
      {revealed && (
        <ShownOnce value={revealed}>
          <Trans>Copy the key now: it is shown only this once.</Trans>
        </ShownOnce>
      )}
      {key !== undefined && (
        <div className={styles.actionsRow}>
          <Button variant={key ? 'secondary' : 'primary'} busy={busy} onClick={() => void create()}>
            <KeyRound aria-hidden size={18} />
            {key ? <Trans>Make a new key</Trans> : <Trans>Make a key</Trans>}
          </Button>
          {key && (
            <>
              <Button variant="secondary" busy={busy} onClick={() => void toggle()} aria-pressed={key.isActive}>
                <Power aria-hidden size={18} />
                {key.isActive ? <Trans>Switch off</Trans> : <Trans>Switch on</Trans>}
              </Button>
              <Button variant="danger" busy={busy} onClick={() => void remove()}>
                <Trash2 aria-hidden size={18} />
                <Trans>Delete</Trans>
              </Button>
            </>
          )}
        </div>
      )}
    </section>
  );
}
