import { currencyOf } from '../../components/intl-formats';
import { useScreenRoutes } from './use-screen-routes';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Suspense, useEffect, useEffectEvent, useId, useMemo, useState, type ComponentType, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { Button } from '../../components/form/button';
import { FormAlert } from '../../components/form/form-alert';
import { useFieldErrors } from '../../components/form/use-field-errors';
import { FormDialog } from '../../components/form-dialog';
import { resourceText } from '../../api/resource-text';
import { recordAhead, type Row } from '../../db/resource-store';
import { editedFields, editorMachine, hasUnsavedChanges, type Values } from '../../machines/editor.machine';
import { storeActors } from '../../machines/store-actors';
import { FIELD_KINDS, preloadFieldKinds, type FieldInputProps } from './field-kinds';
import { OfflineNote } from './offline-note';
import { BackLink } from './back-link';
import styles from './resource.module.css';
import { blankValues, fieldSources, optionSources, type Field, type ResourceScreen } from './screen';
import { useResourceStore } from './store-context';
import { fieldText, sameValue } from './field-text';
import { registerScreens, useScreenWords } from './screen-registry';
import { useLiveRecord } from './use-live-record';
import { PreviewButton } from './preview-button';
import { RecordHistory } from './record-history';
import { useValueNames } from './use-record-names';
import { useOptionLists, type OptionLists } from './use-option-lists';
import { useBoundResource } from './use-bound-resource';
import { useUnsavedGuard } from './use-unsaved-guard';
import { useSession, type SessionUser } from '../../api/session';
import { allows, isAdmin } from '../../contract/permissions';
import { Loading } from './loading';

type EditorActor = ActorRefFrom<typeof editorMachine>;

/**
 * The editor of one record (null: a new one), with `defaults` filled into a new record's blank
 * form. `onDone` hears the server's answer to the save (null when it was queued here).
 */
function useEditor(screen: ResourceScreen, id: string | null, defaults: Values, onDone: (saved: Row | null) => void) {
  const store = useResourceStore();
  const resource = useBoundResource(screen.resource);
  // The record loads meanwhile; a heavy field's chunk should not be what the form then waits for.
  useEffect(() => void preloadFieldKinds(screen.fields), [screen]);
  // Its changes are described in the sync panel with this screen's words.
  useEffect(() => registerScreens(screen), [screen]);
  // The record is read from the first render on (or since its route's code loaded), not from the machine's start after the first paint.
  const [ahead] = useState(() => (id ? recordAhead(store, resource, id) : store));
  const machine = useMemo(() => editorMachine.provide({ actors: storeActors(ahead) }), [ahead]);
  const actor = useActorRef(machine, { input: { resource, id, blank: { ...blankValues(screen.fields, screen.schemaDefaults ? screen.resource : undefined), ...defaults } } });
  useLiveRecord(actor);
  const dirty = useSelector(actor, hasUnsavedChanges);
  const done = useSelector(actor, (snapshot) => snapshot.status === 'done');
  const finish = useEffectEvent(onDone);
  useEffect(() => {
    if (done) finish(actor.getSnapshot().context.saved);
  }, [done, actor]);
  return { actor, dirty };
}

interface ResourceFormProps {
  screen: ResourceScreen;
  actor: EditorActor;
  /** The choices of the select fields, loaded by the form's owner (a list page has them already). */
  options: OptionLists;
  /** Searches a source's choices on the server (searchable selects). */
  onSearch?: (resource: string, text: string) => void;
  /** Without it no Cancel: a form that is the page itself (a singleton's) has nowhere to go back to. */
  onCancel?: () => void;
}

/** The fields a user may write: admin-only ones (a website's status, a partner's type) only for admins; the server drops them anyway. */
export function writableFields(screen: ResourceScreen, user: SessionUser | null): readonly Field[] {
  const admin = user !== null && isAdmin(user);
  return screen.fields.filter((field) => admin || !screen.resource.adminOnly.includes(field.name));
}

/** The ids a form's values (and in a conflict the server's) name, by resource: their names are shown even past the first page of choices. */
function namedIds(fields: readonly Field[], ...versions: readonly (Values | null)[]): Record<string, string[]> {
  const ids: Record<string, string[]> = {};
  for (const field of fields) {
    if (field.kind !== 'select' && field.kind !== 'references') continue;
    for (const values of versions) {
      const value = values?.[field.name];
      (ids[field.source.resource.name] ??= []).push(...(Array.isArray(value) ? value : [value]).filter((id): id is string => typeof id === 'string' && id !== ''));
    }
  }
  return ids;
}

/** The choices of a form's select fields, with the record's own named even past the first page of options. */
function useFormOptions(screen: ResourceScreen, actor: EditorActor) {
  const sources = useMemo(() => optionSources(...fieldSources(screen.fields)), [screen]);
  const values = useSelector(actor, (snapshot) => snapshot.context.values);
  const theirs = useSelector(actor, (snapshot) => snapshot.context.current);
  const wanted = useMemo(() => namedIds(screen.fields, values, theirs), [screen, values, theirs]);
  return useOptionLists(sources, wanted);
}

/** The fields of a screen, described as data, bound to its editor machine; Save and Cancel below. */
function ResourceForm({ screen, actor, options, onSearch, onCancel }: ResourceFormProps) {
  const { i18n } = useLingui();
  const { user } = useSession();
  const fields = writableFields(screen, user);
  const snapshot = useSelector(actor, (state) => state);
  const { context } = snapshot;
  const { errorOf } = useFieldErrors(context.fieldErrors);

  const loading = snapshot.matches('loading');
  const saving = snapshot.matches('saving');
  const conflict = snapshot.matches('conflict');
  const offline = snapshot.matches({ editing: { refresh: 'offline' } }) && context.cachedAt !== null;
  const canSave = context.isNew || editedFields(context).length > 0;
  // A record the person may read but not change (a team role's view level) is shown, not offered for editing.
  const readOnly = !context.isNew && !allows(screen.resource.access.update, user);

  // Fields still taking their value in (a photo being kept): saving now would save without it.
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());
  const busyWith = (name: string) => (isBusy: boolean) =>
    setBusy((before) => {
      if (before.has(name) === isBusy) return before;
      const next = new Set(before);
      if (isBusy) next.add(name);
      else next.delete(name);
      return next;
    });
  const change = (name: string, value: unknown) => actor.send({ type: 'field.change', name, value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'record.save' });
  };

  const field = (spec: Field) => {
    const Input = FIELD_KINDS[spec.kind] as ComponentType<FieldInputProps>;
    return (
      <Suspense key={spec.name} fallback={<p className={styles.muted}>{i18n._(spec.label)}…</p>}>
        <Input
          spec={spec}
          label={i18n._(spec.label)}
          value={context.values[spec.name]}
          error={errorOf(spec.name)}
          options={options}
          onSearch={onSearch}
          onChange={(value) => change(spec.name, value)}
          onBusy={busyWith(spec.name)}
        />
      </Suspense>
    );
  };

  if (loading) {
    return (
      <Loading />
    );
  }
  if (snapshot.matches('loadFailed')) {
    const loadFailed = resourceText(screen.resource, 'loadFailed');
    return (
      <div className={styles.problem} role="alert">
        <p className={styles.problemText}>
          <strong>{loadFailed}</strong> {context.loadError !== loadFailed && context.loadError}
        </p>
        <Button variant="secondary" onClick={() => actor.send({ type: 'record.reload' })}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      {offline && (
        <p className={styles.age}>
          <OfflineNote since={context.cachedAt ?? 0} />
        </p>
      )}
      {context.error && !conflict && <FormAlert>{context.error}</FormAlert>}
      {conflict && <ConflictAlert actor={actor} fields={fields} options={options} />}
      <fieldset className={styles.fields} disabled={saving || conflict || readOnly}>
        {fields.map(field)}
      </fieldset>
      <div className={styles.actions}>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
        )}
        {!context.isNew && context.resource.preview && <PreviewButton resource={context.resource} id={context.id!} dirty={hasUnsavedChanges(snapshot)} />}
        {!readOnly && (
          <Button type="submit" busy={saving || busy.size > 0} disabled={!canSave || conflict}>
            {saving ? <Trans>Saving…</Trans> : <Trans>Save</Trans>}
          </Button>
        )}
      </div>
      {!context.isNew && <RecordHistory actor={actor} fields={fields} options={options} />}
    </form>
  );
}

interface ConflictAlertProps {
  actor: EditorActor;
  /** Those whose two values are listed; without them, those of the resource's screen that the form edits. */
  fields?: readonly Field[];
  /** The form's choices: a record they name is named so even before this device holds it. */
  options?: OptionLists;
}

/**
 * A save refused because the record changed meanwhile (the editor machine's `conflict`): the
 * server's words, the fields where its version and these edits differ, by their labels and in
 * words (fieldText: money, yes or no, a category by its name), and the two ways out. The whole
 * form shows it, and so does any smaller editor of the same machine (a dish's quick edit), whose
 * fields are those of the resource's screen that it edits.
 */
export function ConflictAlert({ actor, fields, options }: ConflictAlertProps) {
  const { i18n } = useLingui();
  const titleId = useId();
  const { error, current: theirs, values, resource, loaded } = useSelector(actor, (snapshot) => snapshot.context);
  const known = useScreenWords([resource.name])(resource.name);
  const compared = fields ?? known?.fields.filter((spec) => spec.name in values) ?? [];
  const differing = theirs ? compared.filter((spec) => !sameValue(theirs[spec.name], values[spec.name])) : [];
  const name = useValueNames([{ fields: differing, values: [theirs, values] }], options);
  const words = { i18n, name, currency: currencyOf(values, theirs, loaded) };
  return (
    <section className={styles.conflict} role="alert" aria-labelledby={titleId}>
      <h3 id={titleId} className={styles.conflictTitle}>
        {error}
      </h3>
      {differing.length > 0 && (
        <dl className={styles.conflictList}>
          {differing.map((spec) => {
            const theirValue = fieldText(spec, theirs?.[spec.name], words) || '—';
            const yourValue = fieldText(spec, values[spec.name], words) || '—';
            return (
              <div key={spec.name}>
                <dt>{i18n._(spec.label)}</dt>
                <dd>
                  <Trans>
                    Theirs: {theirValue} · Yours: {yourValue}
                  </Trans>
                </dd>
              </div>
            );
          })}
        </dl>
      )}
      <div className={styles.actions}>
        <Button variant="secondary" onClick={() => actor.send({ type: 'conflict.takeTheirs' })}>
          <Trans>Take theirs</Trans>
        </Button>
        <Button onClick={() => actor.send({ type: 'conflict.keepMine' })}>
          <Trans>Keep mine</Trans>
        </Button>
      </div>
    </section>
  );
}

interface ResourceFormPageProps {
  screen: ResourceScreen & { routes: NonNullable<ResourceScreen['routes']> };
  title: MessageDescriptor;
  /** Null for a new record. */
  id: string | null;
}

/** A form on a route of its own (/languages/new, /languages/edit/:id); it goes back to the list when done. */
export function ResourceFormPage({ screen, title, id }: ResourceFormPageProps) {
  const { i18n } = useLingui();
  const [, navigate] = useLocation();
  const titleId = useId();
  const routes = useScreenRoutes(screen.routes);
  const { actor, dirty } = useEditor(screen, id, {}, () => navigate(routes.list));
  const leave = useUnsavedGuard(dirty);
  const { lists: options, search } = useFormOptions(screen, actor);

  return (
    <section className={styles.page} aria-labelledby={titleId}>
      <BackLink href={routes.list}>
        <Trans>Back to the list</Trans>
      </BackLink>
      <h1 id={titleId} className={styles.title}>
        {i18n._(title)}
      </h1>
      <div className={styles.card}>
        <ResourceForm screen={screen} actor={actor} options={options} onSearch={search} onCancel={() => leave(() => navigate(routes.list))} />
      </div>
    </section>
  );
}

interface ResourceSingletonFormProps {
  /** A screen of a singleton entry (`singleton: true`): its one record is edited, never made. */
  screen: ResourceScreen;
  /** Saved (`row`: the server's answer) or queued on this device (`row` null). */
  onSaved?: (row: Row | null) => void;
}

/**
 * The one record of a singleton entry (the installation's settings, a website's SEO) on a page of
 * its own: the same editor and form as any record, loaded without an id. After a save the editor
 * starts over on what was kept, so the page stays and shows it.
 */
export function ResourceSingletonForm({ screen, onSaved }: ResourceSingletonFormProps) {
  const [round, setRound] = useState(0);
  const done = (row: Row | null) => {
    onSaved?.(row);
    setRound((n) => n + 1);
  };
  return <SingletonEditor key={round} screen={screen} onDone={done} />;
}

function SingletonEditor({ screen, onDone }: { screen: ResourceScreen; onDone: (row: Row | null) => void }) {
  const { actor, dirty } = useEditor(screen, null, {}, onDone);
  useUnsavedGuard(dirty);
  const { lists: options, search } = useFormOptions(screen, actor);
  return <ResourceForm screen={screen} actor={actor} options={options} onSearch={search} />;
}

interface ResourceFormDialogProps {
  screen: ResourceScreen;
  /** Null for a new record. */
  id: string | null;
  /** Values a new record starts with (the category of a category's subcategories). */
  defaults: Values;
  /** The choices of the select fields: the list page's, which loads them for its filters and columns anyway. */
  options: OptionLists;
  onSearch?: (resource: string, text: string) => void;
  onClose: () => void;
  /** Saved, or queued on this device: the dialog is gone and the list should be read again. */
  onSaved: () => void;
}

/** A form over a list, for resources without form routes of their own; a sheet on phones. */
export function ResourceFormDialog({ screen, id, defaults, options, onSearch, onClose, onSaved }: ResourceFormDialogProps) {
  const { t, i18n } = useLingui();
  const { actor, dirty } = useEditor(screen, id, defaults, onSaved);
  const leave = useUnsavedGuard(dirty);
  const item = i18n._(screen.resource.label.one);

  return (
    <FormDialog title={id ? t`Edit ${item}` : t`Add ${item}`} onRequestClose={() => leave(onClose)}>
      <ResourceForm screen={screen} actor={actor} options={options} onSearch={onSearch} onCancel={() => leave(onClose)} />
    </FormDialog>
  );
}
