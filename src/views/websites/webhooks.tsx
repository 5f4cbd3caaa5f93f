import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { KeyRound, Plus, Power, Send, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useParams } from 'wouter';
import { z } from 'zod/mini';
import { call } from '../../api/action';
import { request } from '../../api/request';
import { ifMatch, ValidationError } from '../../api/send';
import { useSession } from '../../api/session';
import { Button } from '../../components/form/button';
import { CheckboxGroupField } from '../../components/form/choice-fields';
import { TextField } from '../../components/form/text-field';
import { dateTimeFormat } from '../../components/intl-formats';
import { fieldErrors } from '../../contract/field-errors';
import { messages } from '../../contract/messages';
import { fillPath } from '../../contract/resource';
import { eventText, renewWebhookSecret, testWebhook, WEBHOOK_EVENTS, webhookDeliveries, webhooks, type Attempt } from '../../contract/resources/webhooks';
import type { Row } from '../../db/resource-store';
import { resourceStore } from '../../db/device-store';
import { useConfirm, useToast } from '../../machines/feedback';
import type { PageProps } from '../page';
import { BackLink } from '../resource/back-link';
import { Allowed } from '../resource/no-access';
import { ResourceListPage } from '../resource/resource-list-page';
import styles from '../resource/resource.module.css';
import { ShownOnce } from './shown-once';
import { useBusyAction } from '../resource/use-busy-action';
import { useServerRead } from '../resource/use-server-read';
import type { ResourceScreen } from '../resource/screen';
import { ResourceStoreProvider } from '../resource/store-context';

// A website's webhooks (ADR 026): made, switched, tested and given a new secret straight on the
// server, like its API key — a secret shown once cannot wait in the outbox — and the log of their
// deliveries on the shared list screen.

type Webhook = z.infer<typeof webhooks.entity>;
const WebhookList = z.array(webhooks.entity);

/** What became of an attempt, in words: the receiver's status code, or why there was none. */
function resultText(i18n: I18n, statusCode: number | null | undefined, error: Attempt['error'] | string | null | undefined): string {
  if (typeof statusCode === 'number') return String(statusCode);
  if (error === 'refused') return i18n._(msg`Refused: private address`);
  if (error === 'timeout') return i18n._(msg`No answer in time`);
  return i18n._(msg`No connection`);
}

/** The contract's words for an event, through this screen's i18n. */
// Not `i18n._({ ...descriptor, values })`: the catalog extractor trips over a spread literal there.
const eventWords = (i18n: I18n, event: string) => eventText(event, (descriptor, values) => i18n._(descriptor.id, values, { message: descriptor.message }));

/** A moment as this device writes it, in its language. */
const when = (i18n: I18n, iso: string) => dateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

const lastAttempt = (row: Row) => (row.attempts as Attempt[] | undefined)?.at(-1);

/** The delivery log: newest first, each event in words with how its last attempt went. */
export const deliveriesScreen: ResourceScreen = {
  resource: webhookDeliveries,
  columns: [
    { key: 'lastAttemptAt', label: msg`Time`, format: 'datetime' },
    { key: 'event', label: msg`Event`, text: (row, i18n) => eventWords(i18n, String(row.event)) },
    { key: 'lastStatusCode', label: msg`Result`, text: (row, i18n) => (lastAttempt(row) ? resultText(i18n, lastAttempt(row)!.statusCode, lastAttempt(row)!.error) : i18n._(msg`Waiting`)) },
    { key: 'lastDurationMs', label: msg`Duration`, text: (row, i18n) => (typeof row.lastDurationMs === 'number' ? i18n._(msg`${row.lastDurationMs} ms`) : '') },
    {
      key: 'status',
      label: msg`Status`,
      format: 'choice',
      choices: [
        { value: 'pending', label: msg`Retrying` },
        { value: 'delivered', label: msg`Delivered` },
        { value: 'failed', label: msg`Failed` },
      ],
    },
  ],
  fields: [],
};

/** A new webhook: its address and the events it is told of. */
function WebhookForm({ path, onMade }: { path: string; onMade: (made: Webhook) => void }) {
  const { t, i18n } = useLingui();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { busy, act } = useBusyAction();
  const options = WEBHOOK_EVENTS.map((event) => ({ value: event, label: eventWords(i18n, event) }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    return act(async () => {
      try {
        const answer = await request<Webhook>(path, { method: 'POST', body: { url, events }, fallback: messages.requestFailed });
        setUrl('');
        setEvents([]);
        setErrors({});
        onMade(answer.data);
      } catch (error) {
        // Said under its fields; any other failure in the one toast.
        if (!(error instanceof ValidationError) || error.errors.length === 0) throw error;
        setErrors(fieldErrors(error.errors));
      }
    });
  };

  return (
    <form className={`${styles.card} ${styles.stack}`} onSubmit={(event) => void submit(event)} aria-labelledby="webhook-new">
      <h2 id="webhook-new" className={styles.subtitle}>
        <Trans>New webhook</Trans>
      </h2>
      <TextField label={t`Address`} type="url" inputMode="url" name="url" value={url} onChange={(event) => setUrl(event.target.value)} error={errors.url} hint={t`Where the website’s changes are sent, e.g. https://example.com/hooks`} required />
      <CheckboxGroupField label={t`Events`} name="events" options={options} value={events} onChange={setEvents} error={errors.events} />
      <div className={styles.actionsRow}>
        <Button type="submit" busy={busy}>
          <Plus aria-hidden size={18} />
          <Trans>Add webhook</Trans>
        </Button>
      </div>
    </form>
  );
}

/** One webhook: where it goes, what it is told, whether it is on, how its last delivery went, and what can be done with it. */
function WebhookCard({ hook, websiteId, onChanged, onRemoved, onSecret }: { hook: Webhook; websiteId: string; onChanged: (hook: Webhook) => void; onRemoved: () => void; onSecret: (secret: string) => void }) {
  const { t, i18n } = useLingui();
  const toast = useToast();
  const { confirm, confirmDelete } = useConfirm();
  const { busy, act } = useBusyAction();
  const path = fillPath(webhooks.paths.item, { websiteId, webhookId: hook._id });
  const params = { websiteId, webhookId: hook._id };

  const toggle = () =>
    act(async () => {
      const answer = await request<Webhook>(path, { method: 'PUT', body: { isActive: !hook.isActive }, headers: { 'if-match': ifMatch(hook.version) }, fallback: messages.requestFailed });
      onChanged(answer.data);
    });
  const test = () =>
    act(async () => {
      const answer = await call(testWebhook, { params });
      if (answer.data.status === 'delivered') toast.success(answer.message ?? t`Delivered`);
      else toast.error(answer.message ?? t`Failed`);
    });
  const renew = () =>
    act(async () => {
      if (!(await confirm({ title: t`New secret`, message: t`The receiver must check signatures with the new secret from now on. Make a new one?`, confirmText: t`Make a new secret`, cancelText: t`Cancel`, type: 'warning' }))) return;
      const answer = await call(renewWebhookSecret, { params });
      onChanged(answer.data);
      if (answer.data.secret) onSecret(answer.data.secret);
      else if (answer.message) toast.info(answer.message);
    });
  const remove = () =>
    act(async () => {
      if (!(await confirmDelete(t`the webhook to ${hook.url}`))) return;
      await request(path, { method: 'DELETE', headers: { 'if-match': ifMatch(hook.version) }, fallback: messages.requestFailed });
      onRemoved();
    });

  return (
    <li className={`${styles.card} ${styles.stack}`}>
      <p>
        <code className={styles.secret}>{hook.url}</code> <span className={styles.badge}>{hook.isActive ? <Trans>Active</Trans> : <Trans>Switched off</Trans>}</span>
      </p>
      {hook.disabledAt && !hook.isActive && (
        <p className={styles.problemText} role="alert">
          <Trans>Switched off on {when(i18n, hook.disabledAt)} after 24 hours of failed deliveries. The owner was notified by email.</Trans>
        </p>
      )}
      <p className={styles.muted}>{hook.events.map((event) => eventWords(i18n, event)).join(', ')}</p>
      <p>
        {hook.lastDeliveryAt ? (
          <Trans>
            Last delivery: {when(i18n, hook.lastDeliveryAt)}, {resultText(i18n, hook.lastStatusCode, hook.lastError)}
          </Trans>
        ) : (
          <Trans>Nothing delivered yet</Trans>
        )}
      </p>
      <div className={styles.actionsRow}>
        <Button variant="secondary" busy={busy} onClick={() => void test()}>
          <Send aria-hidden size={18} />
          <Trans>Send test</Trans>
        </Button>
        <Button variant="secondary" busy={busy} onClick={() => void toggle()} aria-pressed={hook.isActive}>
          <Power aria-hidden size={18} />
          {hook.isActive ? <Trans>Switch off</Trans> : <Trans>Switch on</Trans>}
        </Button>
        <Button variant="secondary" busy={busy} onClick={() => void renew()}>
          <KeyRound aria-hidden size={18} />
          <Trans>New secret</Trans>
        </Button>
        <Button variant="danger" busy={busy} onClick={() => void remove()}>
          <Trash2 aria-hidden size={18} />
          <Trans>Delete</Trans>
        </Button>
      </div>
    </li>
  );
}

/** The website's webhooks, read from the server; a new one's secret shown once, to copy. */
export function WebhooksPanel({ websiteId }: { websiteId: string }) {
  const { t } = useLingui();
  const path = fillPath(webhooks.paths.list!, { websiteId });
  const [hooks, setHooks] = useServerRead(`${path}?limit=100`, WebhookList);
  const [revealed, setRevealed] = useState<string | null>(null);

  const replace = (next: Webhook) => setHooks((all) => all?.map((hook) => (hook._id === next._id ? next : hook)));

  return (
    <>
      <p className={styles.muted}>
        <Trans>Each change is sent as a signed request (Standard Webhooks). Failed deliveries are tried again for 24 hours.</Trans>
      </p>
      {revealed && (
        <ShownOnce value={revealed}>
          <Trans>Copy the secret now: it is shown only this once. The receiver checks each request’s signature with it.</Trans>
        </ShownOnce>
      )}
      {hooks === undefined && (
        <p className={styles.muted}>
          <Trans>The webhooks can be seen and changed only with a connection.</Trans>
        </p>
      )}
      {hooks?.length === 0 && (
        <p>
          <Trans>This website has no webhooks yet.</Trans>
        </p>
      )}
      {hooks && hooks.length > 0 && (
        <ul className={styles.stack} aria-label={t`Webhooks`}>
          {hooks.map((hook) => (
            <WebhookCard
              key={hook._id}
              hook={hook}
              websiteId={websiteId}
              onChanged={replace}
              onRemoved={() => setHooks((all) => all?.filter((other) => other._id !== hook._id))}
              onSecret={setRevealed}
            />
          ))}
        </ul>
      )}
      {hooks !== undefined && (
        <WebhookForm
          path={path}
          onMade={(made) => {
            setHooks((all) => [...(all ?? []), made]);
            setRevealed(made.secret ?? null);
          }}
        />
      )}
    </>
  );
}

/** /websites/{websiteId}/webhooks: the webhooks, then their delivery log; a team member needs the settings flag. */
export function WebhooksPage({ title }: PageProps) {
  const { websiteId = '' } = useParams<{ websiteId: string }>();
  const { i18n } = useLingui();
  const { user } = useSession();
  if (!user) return null;
  return (
    <ResourceStoreProvider store={resourceStore}>
      <Allowed policy={webhooks.access.list} title={title}>
        {/* Two screens' worth, one under the other: the page's gap keeps the log's heading off the form. */}
        <div className={styles.page}>
          <section className={`${styles.page} ${styles.stack}`} aria-labelledby="webhooks-title">
            <BackLink href={`/websites/${websiteId}`}>
              <Trans>Website dashboard</Trans>
            </BackLink>
            <h1 id="webhooks-title" className={styles.title}>
              {i18n._(title)}
            </h1>
            <WebhooksPanel websiteId={websiteId} />
          </section>
          <ResourceListPage screen={deliveriesScreen} title={msg`Delivery log`} />
        </div>
      </Allowed>
    </ResourceStoreProvider>
  );
}
