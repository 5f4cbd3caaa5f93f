import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { ArrowLeft } from 'lucide-react';
import { Suspense, useEffect, useEffectEvent, useId, useMemo, type ComponentType, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { Button } from '../../components/form/button';
import { FormAlert } from '../../components/form/form-alert';
import { useFieldErrors } from '../../components/form/use-field-errors';
import { FormDialog } from '../../components/form-dialog';
import { resourceText } from '../../api/mutations';
import { editedFields, editorMachine, hasUnsavedChanges, type Values } from '../../machines/editor.machine';
import { storeActors } from '../../machines/store-actors';
import { FIELD_KINDS, preloadFieldKinds, type FieldInputProps } from './field-kinds';
import { OfflineNote } from './offline-note';
import styles from './resource.module.css';
import { blankValues, fieldSources, optionSources, type Field, type ResourceScreen } from './screen';
import { useResourceStore } from './store-context';
import { useOptionLists, type OptionLists } from './use-option-lists';
import { useScopedResource } from './use-scoped-resource';
import { useUnsavedGuard } from './use-unsaved-guard';

type EditorActor = ActorRefFrom<typeof editorMachine>;

type Translations = Record<string, { name: string }>;

/** The editor of one record (null: a new one), with `defaults` filled into a new record's blank form. */
function useEditor(screen: ResourceScreen, id: string | null, defaults: Values, onDone: () => void) {
  const store = useResourceStore();
  const resource = useScopedResource(screen.resource, screen.scope);
  // The record loads meanwhile; a heavy field's chunk should not be what the form then waits for.
  useEffect(() => void preloadFieldKinds(screen.fields), [screen]);
  const machine = useMemo(() => editorMachine.provide({ actors: storeActors(store) }), [store]);
  const actor = useActorRef(machine, { input: { resource, id, blank: { ...blankValues(screen.fields), ...defaults } } });
  const dirty = useSelector(actor, hasUnsavedChanges);
  const done = useSelector(actor, (snapshot) => snapshot.status === 'done');
  const finish = useEffectEvent(onDone);
  useEffect(() => {
    if (done) finish();
  }, [done]);
  return { actor, dirty };
}

/** A value as the conflict summary shows it. */
function shown(value: unknown): string {
  if (value && typeof value === 'object') {
    return Object.entries(value as Translations)
      .map(([code, entry]) => `${code}: ${entry.name}`)
      .join(', ');
  }
  return String(value ?? '');
}

interface ResourceFormProps {
  screen: ResourceScreen;
  actor: EditorActor;
  /** The choices of the select fields, loaded by the form's owner (a list page has them already). */
  options: OptionLists;
  onCancel: () => void;
}

/** The fields of a screen, described as data, bound to its editor machine; Save and Cancel below. */
function ResourceForm({ screen, actor, options, onCancel }: ResourceFormProps) {
  const { i18n } = useLingui();
  const snapshot = useSelector(actor, (state) => state);
  const { context } = snapshot;
  const { errorOf } = useFieldErrors(context.fieldErrors);
  const conflictId = useId();

  const loading = snapshot.matches('loading');
  const saving = snapshot.matches('saving');
  const conflict = snapshot.matches('conflict');
  const offline = snapshot.matches({ editing: { refresh: 'offline' } }) && context.cachedAt !== null;
  const canSave = context.isNew || editedFields(context).length > 0;

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
          onChange={(value) => change(spec.name, value)}
        />
      </Suspense>
    );
  };

  if (loading) {
    return (
      <p className={styles.muted} aria-busy="true">
        <Trans>Loading…</Trans>
      </p>
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

  const theirs = context.current;
  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      {offline && (
        <p className={styles.age}>
          <OfflineNote since={context.cachedAt ?? 0} />
        </p>
      )}
      {context.error && !conflict && <FormAlert>{context.error}</FormAlert>}
      {conflict && theirs && (
        <section className={styles.conflict} role="alert" aria-labelledby={conflictId}>
          <h3 id={conflictId} className={styles.conflictTitle}>
            {context.error}
          </h3>
          <dl className={styles.conflictList}>
            {screen.fields
              .filter((spec) => shown(theirs[spec.name]) !== shown(context.values[spec.name]))
              .map((spec) => {
                const theirValue = shown(theirs[spec.name]);
                const yourValue = shown(context.values[spec.name]);
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
          <div className={styles.actions}>
            <Button variant="secondary" onClick={() => actor.send({ type: 'conflict.takeTheirs' })}>
              <Trans>Take theirs</Trans>
            </Button>
            <Button onClick={() => actor.send({ type: 'conflict.keepMine' })}>
              <Trans>Keep mine</Trans>
            </Button>
          </div>
        </section>
      )}
      <fieldset className={styles.fields} disabled={saving || conflict}>
        {screen.fields.map(field)}
      </fieldset>
      <div className={styles.actions}>
        <Button variant="secondary" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" busy={saving} disabled={!canSave || conflict}>
          {saving ? <Trans>Saving…</Trans> : <Trans>Save</Trans>}
        </Button>
      </div>
    </form>
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
  const { actor, dirty } = useEditor(screen, id, {}, () => navigate(screen.routes.list));
  const leave = useUnsavedGuard(dirty);
  const sources = useMemo(() => optionSources(...fieldSources(screen.fields)), [screen]);
  const values = useSelector(actor, (snapshot) => snapshot.context.values);
  // The record's own choices are named even when they are past the first page of options.
  const wanted = useMemo(
    () => Object.fromEntries(screen.fields.flatMap((field) => (field.kind === 'select' ? [[field.source.resource.name, [values[field.name] as string]]] : []))),
    [screen, values],
  );
  const { lists: options } = useOptionLists(sources, wanted, screen.scope);

  return (
    <section className={styles.page} aria-labelledby={titleId}>
      <Link href={screen.routes.list} className={styles.back}>
        <ArrowLeft aria-hidden size={18} />
        <Trans>Back to the list</Trans>
      </Link>
      <h1 id={titleId} className={styles.title}>
        {i18n._(title)}
      </h1>
      <div className={styles.card}>
        <ResourceForm screen={screen} actor={actor} options={options} onCancel={() => leave(() => navigate(screen.routes.list))} />
      </div>
    </section>
  );
}

interface ResourceFormDialogProps {
  screen: ResourceScreen;
  /** Null for a new record. */
  id: string | null;
  /** Values a new record starts with (the category of a category's subcategories). */
  defaults: Values;
  /** The choices of the select fields: the list page's, which loads them for its filters and columns anyway. */
  options: OptionLists;
  onClose: () => void;
  /** Saved, or queued on this device: the dialog is gone and the list should be read again. */
  onSaved: () => void;
}

/** A form over a list, for resources without form routes of their own; a sheet on phones. */
export function ResourceFormDialog({ screen, id, defaults, options, onClose, onSaved }: ResourceFormDialogProps) {
  const { t, i18n } = useLingui();
  const { actor, dirty } = useEditor(screen, id, defaults, onSaved);
  const leave = useUnsavedGuard(dirty);
  const item = i18n._(screen.resource.label.one);

  return (
    <FormDialog title={id ? t`Edit ${item}` : t`Add ${item}`} onRequestClose={() => leave(onClose)}>
      <ResourceForm screen={screen} actor={actor} options={options} onCancel={() => leave(onClose)} />
    </FormDialog>
  );
}
