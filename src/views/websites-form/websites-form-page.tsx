import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useEffectEvent, useId, useMemo, useState, type ComponentType, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { fetchMyPartnerType } from '../../api/partners';
import { fetchAllServiceItems } from '../../api/services';
import type { PageProps } from '../page';
import { useSession, type SessionUser } from '../../api/session';
import { Button } from '../../components/form/button';
import { FormAlert } from '../../components/form/form-alert';
import { TextField } from '../../components/form/text-field';
import { useFieldErrors } from '../../components/form/use-field-errors';
import { formatMoney } from '../../components/intl-formats';
import { toInterfaceLanguage, type InterfaceLanguage } from '../../contract/languages';
import { allows, isAdmin } from '../../contract/permissions';
import { DEFAULT_PARTNER_TYPE, type PartnerType } from '../../contract/resources/partners';
import { DEFAULT_CURRENCY, SERVICE_TYPES, type ServiceItem, type ServiceType } from '../../contract/resources/services';
import { websites } from '../../contract/resources/websites';
import { resourceStore } from '../../db/device-store';
import { editorMachine, hasUnsavedChanges } from '../../machines/editor.machine';
import { reasonOf } from '../../machines/reason';
import { storeActors } from '../../machines/store-actors';
import { partnerTypeChoices, ownerField } from '../admin/choices';
import { BackLink } from '../resource/back-link';
import { FIELD_KINDS, type FieldInputProps } from '../resource/field-kinds';
import resourceStyles from '../resource/resource.module.css';
import { ResourceStoreProvider, useResourceStore } from '../resource/store-context';
import { useOptionLists, type WantedIds } from '../resource/use-option-lists';
import { useUnsavedGuard } from '../resource/use-unsaved-guard';
import styles from './websites-form-page.module.css';
import { Loading } from '../resource/loading';

// /websites-form (spec §7 "Other"): an owner or partner composes a website from the active services,
// their features and modules, and sees what it costs for their partner type. The website is saved
// like every other record (editor machine → outbox), so it waits on this device when offline; the
// server prices it, and that price is the one that counts.

const GROUPS: Record<ServiceType, MessageDescriptor> = {
  package: msg`Website packages`,
  addon: msg`Add-ons`,
  hosting: msg`Hosting`,
  care: msg`Care plans`,
};

// An admin composes a website for an owner, picked among thousands of accounts.
const OwnerInput = FIELD_KINDS.select as ComponentType<FieldInputProps>;

type Catalog =
  | { status: 'loading' }
  | { status: 'loaded'; items: ServiceItem[]; partnerType: PartnerType }
  | { status: 'failed'; error: string };

/**
 * The priced items on offer, in `language`, for the caller's partner type: a partner's oldest active
 * partner record's (as the server prices their websites), standard for everyone else and when the
 * partner records cannot be read (spec §8).
 */
function useServiceCatalog(user: SessionUser | null, language: InterfaceLanguage) {
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<{ asked: string; catalog: Catalog } | null>(null);
  const partner = user?.type === 'partner';
  // Each question its own answer: until the one asked last is in, the catalog is loading.
  const asked = `${partner}:${language}:${attempt}`;
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const settle = (catalog: Catalog) => signal.aborted || setAnswer({ asked, catalog });
    (async () => {
      const partnerType = partner ? await fetchMyPartnerType(signal) : DEFAULT_PARTNER_TYPE;
      settle({ status: 'loaded', items: await fetchAllServiceItems(partnerType, language, signal), partnerType });
    })().catch((error: unknown) => settle({ status: 'failed', error: reasonOf(error) }));
    return () => controller.abort();
  }, [asked, partner, language]);
  const catalog: Catalog = answer?.asked === asked ? answer.catalog : { status: 'loading' };
  return { catalog, retry: () => setAttempt((n) => n + 1) };
}

/** What the chosen items cost, as far as this device knows: one currency, or none when they mix. */
export function estimate(items: readonly ServiceItem[], chosen: readonly string[]): { cents: number; currency: string } | null {
  const byId = new Map(items.map((item) => [item.id, item]));
  const picked = [...new Set(chosen)].flatMap((id) => byId.get(id) ?? []);
  const currencies = new Set(picked.map((item) => item.currency));
  if (currencies.size > 1) return null;
  return { cents: picked.reduce((sum, item) => sum + item.price, 0), currency: [...currencies][0] ?? items[0]?.currency ?? DEFAULT_CURRENCY };
}

interface OptionProps {
  item: ServiceItem;
  checked: boolean;
  onToggle: (id: string, on: boolean) => void;
  main?: boolean;
}

/** One priced item: the whole row is the checkbox's label, at least a finger high. */
function Option({ item, checked, onToggle, main = false }: OptionProps) {
  const { i18n } = useLingui();
  return (
    <label className={main ? `${styles.option} ${styles.main}` : styles.option}>
      <input type="checkbox" checked={checked} onChange={(event) => onToggle(item.id, event.target.checked)} />
      <span className={styles.optionName}>{item.name}</span>
      <span className={styles.price}>{formatMoney(item.price, item.currency, i18n.locale)}</span>
    </label>
  );
}

interface ServiceCardProps {
  service: ServiceItem;
  extras: readonly ServiceItem[];
  chosen: readonly string[];
  onToggle: (id: string, on: boolean) => void;
}

/** A service and what can come with it: its features and modules, each chosen on its own. */
function ServiceCard({ service, extras, chosen, onToggle }: ServiceCardProps) {
  const { t } = useLingui();
  const name = service.name;
  return (
    <article className={styles.service}>
      <Option item={service} checked={chosen.includes(service.id)} onToggle={onToggle} main />
      {service.description && <p className={styles.description}>{service.description}</p>}
      {extras.length > 0 && (
        <fieldset className={styles.extras}>
          <legend className={styles.extrasTitle}>{t`Also with ${name}`}</legend>
          {extras.map((item) => (
            <Option key={item.id} item={item} checked={chosen.includes(item.id)} onToggle={onToggle} />
          ))}
        </fieldset>
      )}
    </article>
  );
}

/** The active services grouped by type, each with its features and modules. */
function ServiceChoices({ items, chosen, onToggle }: { items: readonly ServiceItem[]; chosen: readonly string[]; onToggle: (id: string, on: boolean) => void }) {
  const { i18n } = useLingui();
  const extrasOf = (serviceId: string) => items.filter((item) => item.kind !== 'service' && item.serviceId === serviceId);
  const groups = SERVICE_TYPES.map((type) => ({ type, services: items.filter((item) => item.kind === 'service' && item.serviceType === type) })).filter(
    (group) => group.services.length > 0,
  );
  if (groups.length === 0) {
    return (
      <p className={resourceStyles.muted}>
        <Trans>No services are offered yet.</Trans>
      </p>
    );
  }
  return groups.map((group) => (
    <section key={group.type} className={styles.group} aria-labelledby={`services-${group.type}`}>
      <h2 id={`services-${group.type}`} className={styles.groupTitle}>
        {i18n._(GROUPS[group.type])}
      </h2>
      {group.services.map((service) => (
        <ServiceCard key={service.id} service={service} extras={extrasOf(service.serviceId)} chosen={chosen} onToggle={onToggle} />
      ))}
    </section>
  ));
}

/** The form itself, on whatever store the page is given (the app's, or a test's). */
export function WebsitesForm({ title }: PageProps) {
  const { t, i18n } = useLingui();
  const { user } = useSession();
  const [, navigate] = useLocation();
  const titleId = useId();
  const store = useResourceStore();
  const admin = user !== null && isAdmin(user);
  const list = admin ? '/websites' : '/user/websites';

  const machine = useMemo(() => editorMachine.provide({ actors: storeActors(store) }), [store]);
  // An admin's website needs its owner; everyone else's is their own (the server stamps it).
  const blank = useMemo(() => ({ name: '', domain: '', items: [] as string[], ...(admin ? { ownerId: '' } : {}) }), [admin]);
  const actor = useActorRef(machine, { input: { resource: websites, id: null, blank } });
  const snapshot = useSelector(actor, (state) => state);
  const { context } = snapshot;
  const dirty = useSelector(actor, hasUnsavedChanges);
  const leave = useUnsavedGuard(dirty);
  const { errorOf } = useFieldErrors(context.fieldErrors);
  const saving = snapshot.matches('saving');

  // Saved, or waiting in the outbox: either way the website is on its way, and its list shows it.
  const done = snapshot.status === 'done';
  const finish = useEffectEvent(() => navigate(list));
  useEffect(() => {
    if (done) finish();
  }, [done]);

  const ownerSources = useMemo(() => (admin ? [ownerField.source] : []), [admin]);
  const wanted = useMemo((): WantedIds => (admin ? { users: [context.values.ownerId as string | undefined] } : {}), [admin, context.values.ownerId]);
  const owners = useOptionLists(ownerSources, wanted);

  const { catalog, retry } = useServiceCatalog(user, toInterfaceLanguage(i18n.locale));
  const chosen = (context.values.items as string[] | undefined) ?? [];
  const change = (name: string, value: unknown) => actor.send({ type: 'field.change', name, value });
  const toggle = (id: string, on: boolean) => change('items', on ? [...chosen.filter((item) => item !== id), id] : chosen.filter((item) => item !== id));
  const total = catalog.status === 'loaded' ? estimate(catalog.items, chosen) : null;
  const typeLabel = catalog.status === 'loaded' ? partnerTypeChoices.find((choice) => choice.value === catalog.partnerType)?.label : undefined;
  const partnerType = typeLabel ? i18n._(typeLabel) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'record.save' });
  };

  if (!user || !allows(websites.access.create, user)) {
    return (
      <section className={resourceStyles.page}>
        <h1 className={resourceStyles.title}>{i18n._(title)}</h1>
        <p className={resourceStyles.muted}>
          <Trans>Only website owners, partners and admins can put a website together.</Trans>
        </p>
      </section>
    );
  }

  return (
    <section className={resourceStyles.page} aria-labelledby={titleId}>
      <BackLink href={list}>{admin ? <Trans>Back to the websites</Trans> : <Trans>Back to my websites</Trans>}</BackLink>
      <h1 id={titleId} className={resourceStyles.title}>
        {i18n._(title)}
      </h1>
      <form className={styles.form} onSubmit={submit} noValidate>
        <fieldset className={styles.fields} disabled={saving}>
          <div className={styles.card}>
            {context.error && <FormAlert>{context.error}</FormAlert>}
            <TextField label={t`Website name`} name="name" value={String(context.values.name ?? '')} error={errorOf('name')} onChange={(event) => change('name', event.target.value)} />
            <TextField
              label={t`Domain`}
              name="domain"
              inputMode="url"
              autoCapitalize="none"
              spellCheck={false}
              hint={t`Optional, such as example.com.`}
              value={String(context.values.domain ?? '')}
              error={errorOf('domain')}
              onChange={(event) => change('domain', event.target.value)}
            />
            {admin && (
              <OwnerInput
                spec={ownerField}
                label={i18n._(ownerField.label)}
                value={context.values.ownerId}
                error={errorOf('ownerId')}
                options={owners.lists}
                onSearch={owners.search}
                onChange={(value) => change('ownerId', value)}
              />
            )}
          </div>

          {catalog.status === 'loading' && (
            <Loading>
              <Trans>Loading the services…</Trans>
            </Loading>
          )}
          {catalog.status === 'failed' && (
            <div className={resourceStyles.problem} role="alert">
              <p className={resourceStyles.problemText}>{catalog.error}</p>
              <Button variant="secondary" onClick={retry}>
                <Trans>Try again</Trans>
              </Button>
            </div>
          )}
          {catalog.status === 'loaded' && <ServiceChoices items={catalog.items} chosen={chosen} onToggle={toggle} />}
        </fieldset>

        <div className={styles.summary}>
          <p className={styles.total} aria-live="polite">
            <span>
              <Trans>Total</Trans>
            </span>
            <strong data-testid="websites-form-total">{total ? formatMoney(total.cents, total.currency, i18n.locale) : '–'}</strong>
          </p>
          {catalog.status === 'loaded' && !total && (
            <p className={styles.error}>
              <Trans>These services are priced in different currencies; choose services of one currency.</Trans>
            </p>
          )}
          {errorOf('items') && <p className={styles.error}>{errorOf('items')}</p>}
          <p className={styles.note}>
            {partnerType ? (
              <Trans>An estimate at {partnerType} prices: the price is confirmed when the website is saved.</Trans>
            ) : (
              <Trans>An estimate: the price is confirmed when the website is saved.</Trans>
            )}
          </p>
          <div className={resourceStyles.actions}>
            <Button variant="secondary" onClick={() => leave(() => navigate(list))}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" busy={saving}>
              {saving ? <Trans>Saving…</Trans> : <Trans>Save</Trans>}
            </Button>
          </div>
        </div>
      </form>
    </section>
  );
}

/** /websites-form on the app's store: what is saved here goes through this device's outbox. */
export function WebsitesFormPage({ title }: PageProps) {
  return (
    <ResourceStoreProvider store={resourceStore}>
      <WebsitesForm title={title} />
    </ResourceStoreProvider>
  );
}
