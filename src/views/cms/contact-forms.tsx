import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Send } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useParams } from 'wouter';
import { CMS, screenRoutes } from '../cms-modules';
import { call } from '../../api/action';
import type { PageProps } from '../page';
import { useSession } from '../../api/session';
import { Button } from '../../components/form/button';
import formStyles from '../../components/form/form.module.css';
import { TextField } from '../../components/form/text-field';
import { SectionTabs } from '../../components/section-tabs';
import { allows } from '../../contract/permissions';
import { boundTo } from '../../contract/resource';
import { contactForms, contactSubmissions, mailTemplates, smtpSettings, testSmtp } from '../../contract/resources/contact-forms';
import { resourceStore } from '../../db/device-store';
import type { Row } from '../../db/resource-store';
import { reasonOf } from '../../machines/reason';
import { Allowed } from '../resource/no-access';
import { screenPages } from '../resource/screen-pages';
import { ResourceSingletonForm } from '../resource/resource-form';
import styles from '../resource/resource.module.css';
import type { Choice, Field, ResourceScreen } from '../resource/screen';
import { ResourceStoreProvider, useResourceStore } from '../resource/store-context';
import { CmsBackLink } from './cms-back-link';

// Spec §2 /cms/{id}/forms, /forms/new, /forms/edit/{formId}, /forms/smtp, /forms/template; spec
// §7 Contact forms. Three tabs of one section: the forms (each with the submissions it received
// listed under it), the outgoing mail server with a test mail, and the mail's template.

const fieldTypeChoices: readonly Choice[] = [
  { value: 'text', label: msg`Text` },
  { value: 'email', label: msg`Email address` },
  { value: 'tel', label: msg`Phone number` },
  { value: 'number', label: msg`Number` },
  { value: 'date', label: msg`Date` },
  { value: 'textarea', label: msg`Long text` },
  { value: 'select', label: msg`Choice` },
  { value: 'checkbox', label: msg`Tick box` },
];
const activeChoices: readonly Choice[] = [
  { value: 'true', label: msg`Active` },
  { value: 'false', label: msg`Inactive` },
];
const handledChoices: readonly Choice[] = [
  { value: 'false', label: msg`Open` },
  { value: 'true', label: msg`Handled` },
];
const mailChoices: readonly Choice[] = [
  { value: 'pending', label: msg`Waiting to be mailed` },
  { value: 'sent', label: msg`Mailed` },
];
const securityChoices: readonly Choice[] = [
  { value: 'starttls', label: msg`STARTTLS (usually port 587)` },
  { value: 'tls', label: msg`TLS from the start (usually port 465)` },
  { value: 'none', label: msg`None (only inside a trusted network)` },
];

const example = '{{email}}';
/** One field of a form, as the fields editor shows it. */
const formFieldItem: readonly Field[] = [
  { name: 'label', label: msg`Label`, kind: 'text' },
  { name: 'type', label: msg`Type`, kind: 'choice', choices: fieldTypeChoices },
  { name: 'required', label: msg`Required`, kind: 'checkbox' },
  { name: 'options', label: msg`Options of a choice`, kind: 'tags', hint: msg`Separated by commas` },
  { name: 'name', label: msg`Name`, kind: 'text', hint: msg`Its placeholder in the email template, such as ${example}; left empty, it is made from the label` },
];

export const contactFormsScreen = {
  resource: contactForms,
  schemaDefaults: true,
  columns: [
    { key: 'name', label: msg`Name`, sortable: true },
    { key: 'fields', label: msg`Fields`, format: 'count' },
    { key: 'isActive', label: msg`Status`, text: (row: Row) => i18n._(row.isActive === false ? msg`Inactive` : msg`Active`) },
    { key: 'updatedAt', label: msg`Updated`, format: 'date', sortable: true },
  ],
  fields: [
    { name: 'name', label: msg`Name`, kind: 'text' },
    { name: 'description', label: msg`Description`, kind: 'textarea' },
    { name: 'recipientEmail', label: msg`Send submissions to`, kind: 'email', hint: msg`Left empty, they go to the sender address of the outgoing mail settings` },
    { name: 'isActive', label: msg`Takes submissions`, kind: 'checkbox' },
    { name: 'fields', label: msg`Fields`, kind: 'records', item: formFieldItem, itemTitle: 'label', add: msg`Add field` },
  ],
  filters: [{ key: 'isActive', label: msg`Status`, choices: activeChoices }],
  routes: screenRoutes(CMS.contactForms, { list: 'list', create: 'new', edit: 'edit' }),
} satisfies ResourceScreen;

type Submitted = { label: string; value: string | number | boolean };
const valueText = (value: Submitted['value']) => (typeof value === 'boolean' ? (value ? '✓' : '–') : String(value));

/** What a form received, listed under it: newest last, as they came; marked handled once answered. */
export const submissionsScreen = {
  resource: contactSubmissions,
  columns: [
    { key: 'createdAt', label: msg`Received`, format: 'date', sortable: true },
    { key: 'summary', label: msg`From`, sortable: true },
    {
      key: 'values',
      label: msg`Message`,
      text: (row: Row) => ((row.values ?? []) as Submitted[]).map((field) => `${field.label}: ${valueText(field.value)}`).join(' · '),
    },
    {
      key: 'mailStatus',
      label: msg`Mail`,
      text: (row: Row) => {
        const tries = Number(row.mailAttempts ?? 0);
        return i18n._(row.mailStatus === 'sent' ? msg`Mailed` : tries > 0 ? msg`Waiting to be mailed (tried ${tries}×)` : msg`Waiting to be mailed`);
      },
    },
    { key: 'handled', label: msg`Handled`, text: (row: Row) => (row.handled ? '✓' : '–') },
  ],
  fields: [{ name: 'handled', label: msg`Handled`, kind: 'checkbox' }],
  filters: [
    { key: 'handled', label: msg`Handled`, choices: handledChoices },
    { key: 'mailStatus', label: msg`Mail`, choices: mailChoices },
  ],
} satisfies ResourceScreen;

export const smtpScreen = {
  resource: smtpSettings,
  schemaDefaults: true,
  columns: [],
  fields: [
    { name: 'host', label: msg`Server`, kind: 'text', hint: msg`Such as smtp.example.com` },
    { name: 'port', label: msg`Port`, kind: 'integer' },
    { name: 'security', label: msg`Encryption`, kind: 'choice', choices: securityChoices },
    { name: 'username', label: msg`User name`, kind: 'text' },
    { name: 'password', label: msg`Password`, kind: 'password', hint: msg`Stored encrypted and never shown again; left empty, the saved one stays` },
    { name: 'fromEmail', label: msg`Sender address`, kind: 'email' },
    { name: 'fromName', label: msg`Sender name`, kind: 'text' },
  ],
} satisfies ResourceScreen;

export const templateScreen = {
  resource: mailTemplates,
  columns: [],
  fields: [
    { name: 'subject', label: msg`Subject`, kind: 'text', hint: msg`Left empty: “New message:” and the form’s name` },
    { name: 'body', label: msg`Text`, kind: 'textarea' },
  ],
} satisfies ResourceScreen;

/** The section's tabs under the way back to the CMS dashboard. */
function FormsSection() {
  const { t } = useLingui();
  const { websiteId = '' } = useParams<{ websiteId: string }>();
  const base = `/cms/${websiteId}/forms`;
  return (
    <>
      <CmsBackLink />
      <SectionTabs
        label={t`Contact form section`}
        tabs={[
          { href: base, label: t`Forms` },
          { href: `${base}/smtp`, label: t`Outgoing mail` },
          { href: `${base}/template`, label: t`Email template` },
        ]}
      />
    </>
  );
}

const forms = screenPages(contactFormsScreen, <FormsSection />, { screen: submissionsScreen, title: msg`Submissions` });
export const ContactFormsPage = forms.List;
export const ContactFormNewPage = forms.New;
export const ContactFormEditPage = forms.Edit;

/** A tab holding one record of the website (its mail server, its template): an empty form until it is first saved. */
function SingletonTab({ title, screen, onSaved, children }: { title: MessageDescriptor; screen: ResourceScreen; onSaved?: (row: Row | null) => void; children?: ReactNode }) {
  const { i18n: active } = useLingui();
  const { websiteId = '' } = useParams<{ websiteId: string }>();
  return (
    <ResourceStoreProvider store={resourceStore}>
      <FormsSection />
      <Allowed policy={screen.resource.access.get} title={title}>
        <section className={styles.page}>
          <h1 className={styles.title}>{active._(title)}</h1>
          {children}
          <div className={styles.card}>
            <ResourceSingletonForm key={websiteId} screen={screen} onSaved={onSaved} />
          </div>
        </section>
      </Allowed>
    </ResourceStoreProvider>
  );
}

/** Whether the website's mail settings keep a password (never the password itself): from the server, then from each save. */
function SavedPassword({ websiteId, saved }: { websiteId: string; saved: Row | null }) {
  const store = useResourceStore();
  const [loaded, setLoaded] = useState<boolean | null>(null);
  useEffect(() => {
    let current = true;
    store.fetchRecord(boundTo(smtpSettings, { websiteId }), '').then(
      (row) => current && setLoaded(row.hasPassword === true),
      // None saved yet, or offline: nothing to say.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [store, websiteId]);
  const has = saved ? saved.hasPassword === true : loaded;
  if (has === null) return null;
  return <p className={styles.muted}>{has ? <Trans>A password is saved.</Trans> : <Trans>No password is saved.</Trans>}</p>;
}

/** Spec §7 `POST …/smtp/test`: a real mail through the saved settings; the server's answer is shown as it is. */
function SmtpTest({ websiteId }: { websiteId: string }) {
  const { t } = useLingui();
  const { user } = useSession();
  const headingId = useId();
  const [to, setTo] = useState(user?.email ?? '');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  if (!allows(smtpSettings.access.update, user)) return null;

  async function send(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setAnswer(null);
    try {
      const sent = await call(testSmtp, { params: { websiteId }, body: to.trim() ? { to: to.trim() } : {} });
      setAnswer({ ok: true, text: sent.message ?? '' });
    } catch (error) {
      setAnswer({ ok: false, text: reasonOf(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className={`${styles.card} ${styles.stack}`} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.subtitle}>
        <Trans>Send a test mail</Trans>
      </h2>
      <p className={styles.muted}>
        <Trans>The mail goes out through the saved settings: save changes first.</Trans>
      </p>
      <form className={styles.stack} onSubmit={(event) => void send(event)} noValidate>
        <TextField label={t`Send to`} type="email" autoComplete="email" value={to} onChange={(event) => setTo(event.target.value)} />
        <div className={styles.actionsRow}>
          <Button type="submit" busy={busy}>
            <Send aria-hidden size={18} />
            {busy ? <Trans>Sending…</Trans> : <Trans>Send test mail</Trans>}
          </Button>
        </div>
      </form>
      {answer && (
        <p className={answer.ok ? styles.muted : formStyles.error} role={answer.ok ? 'status' : 'alert'}>
          {answer.text}
        </p>
      )}
    </section>
  );
}

/** /cms/{id}/forms/smtp: the mail server the website's submissions go out through, and its test. */
export function SmtpPage({ title }: PageProps) {
  const { websiteId = '' } = useParams<{ websiteId: string }>();
  const [saved, setSaved] = useState<Row | null>(null);
  return (
    <SingletonTab title={title} screen={smtpScreen} onSaved={(row) => row && setSaved(row)}>
      <SavedPassword key={websiteId} websiteId={websiteId} saved={saved} />
      <SmtpTest key={`${websiteId} test`} websiteId={websiteId} />
    </SingletonTab>
  );
}

const PLACEHOLDERS: readonly { code: string; text: MessageDescriptor }[] = [
  { code: '{{fields}}', text: msg`Every field of the form with its label` },
  { code: '{{form}}', text: msg`The form’s name` },
  { code: '{{date}}', text: msg`When it was sent` },
  { code: example, text: msg`The value of the field of that name (each form shows its fields’ names)` },
];

/** /cms/{id}/forms/template: the mail each submission makes, with the placeholders it may use. */
export function TemplatePage({ title }: PageProps) {
  const { i18n: active } = useLingui();
  return (
    <SingletonTab title={title} screen={templateScreen}>
      <p className={styles.muted}>
        <Trans>Left empty, the mail lists every field. What a visitor typed is inserted as text, never as formatting.</Trans>
      </p>
      <dl className={`${styles.card} ${styles.details}`}>
        {PLACEHOLDERS.map((placeholder) => (
          <div key={placeholder.code} className={styles.detail}>
            <dt>
              <code>{placeholder.code}</code>
            </dt>
            <dd>{active._(placeholder.text)}</dd>
          </div>
        ))}
      </dl>
    </SingletonTab>
  );
}
