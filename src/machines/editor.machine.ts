import { and, assign, setup, spawnChild, stateIn, type DoneActorEvent, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import { toast } from './feedback';
import { fieldErrors } from '../contract/field-errors';
import type { Resource } from '../contract/resource';
import { uuidv7 } from '../contract/uuid';
import type { Cached, Mutation, Outcome, Row } from '../db/resource-store';
import { resourceText } from '../api/resource-text';
import { reasonOf } from './reason';
import { unprovidedActors } from './store-actors';
import type { ToastKind } from './toast.machine';

/** The form's values by field name, in the shape the resource's schemas take. */
export type Values = Record<string, unknown>;

export interface EditorContext {
  resource: Resource;
  /** A new record's id is made here (UUID v7), so it can be edited offline before it syncs (DESIGN §4). */
  id: string;
  isNew: boolean;
  /** The version the edits are based on: the update's baseVersion. */
  version: number | null;
  /** The values as loaded (or the blank form): what "edited" is measured against. */
  original: Values;
  values: Values;
  /** When the copy on show was fetched, while it is this device's copy rather than the server's answer. */
  cachedAt: number | null;
  /** Why the record could not be loaded. */
  loadError: string | null;
  /** By field: a catalogue id from the schema, or the server's message. */
  fieldErrors: Record<string, string>;
  /** The form-level reason, in the interface language. */
  error: string | null;
  /** The server's version, while a conflict waits for the user's choice. */
  current: Row | null;
  /** The server's answer to a save. */
  saved: Row | null;
  /** The whole record as last loaded (computed fields too): what a record's page shows. */
  loaded: Row | null;
}

export interface EditorInput {
  resource: Resource;
  /** Null for a new record; for a singleton, its one record (loaded, never new: its id comes with it). */
  id: string | null;
  /** The blank form; its keys are the fields this form edits. */
  blank: Values;
}

export type EditorEvent =
  | { type: 'field.change'; name: string; value: unknown }
  | { type: 'record.save' }
  /** Another attempt after the record could not be loaded. */
  | { type: 'record.reload' }
  /** Read the server's version again; taken only while the form is clean. */
  | { type: 'record.refresh' }
  /**
   * Back to how a revision of the record left it (its history): those of `values` the form edits are
   * saved as an update from the version on show, like edits typed in (a conflict if it changed since).
   */
  | { type: 'record.restore'; values: Values }
  /** After a conflict: send my edits again, on top of the server's version. */
  | { type: 'conflict.keepMine' }
  /** After a conflict: drop my edits and edit the server's version. */
  | { type: 'conflict.takeTheirs' }
  | DoneActorEvent<Cached<Row> | null, 'readRecord'>
  | ErrorActorEvent<unknown, 'readRecord'>
  | DoneActorEvent<Row, 'fetchRecord'>
  | ErrorActorEvent<unknown, 'fetchRecord'>
  | DoneActorEvent<Outcome, 'submit'>
  | ErrorActorEvent<unknown, 'submit'>;

/** Equal as data: objects regardless of key order (a language's `content` comes back reordered). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.length === keysB.length && keysA.every((key) => same((a as Values)[key], (b as Values)[key]));
}

/** The fields whose values differ from the loaded ones. */
export function editedFields({ values, original }: Pick<EditorContext, 'values' | 'original'>): string[] {
  return Object.keys(values).filter((name) => !same(values[name], original[name]));
}

const pick = (source: Values, names: readonly string[]): Values =>
  Object.fromEntries(names.filter((name) => name in source).map((name) => [name, source[name]]));

/** A row's values for the form's fields; a field the row lacks keeps its blank value. */
const valuesOf = (row: Row, blank: Values): Values =>
  Object.fromEntries(Object.keys(blank).map((name) => [name, (row as Values)[name] ?? blank[name]]));

/** The form's values with a revision's laid over: only the fields the form edits. */
const restored = (context: EditorContext, values: Values): Values => ({ ...context.values, ...pick(values, Object.keys(context.original)) });

type Check = { mutation: Mutation; fieldErrors?: undefined } | { mutation?: undefined; fieldErrors: Record<string, string> };

/** The mutation a save sends, or the schema's complaints. A create sends every field; an update only the edited ones. */
function check(context: EditorContext): Check {
  if (context.isNew) {
    const result = context.resource.create.safeParse(context.values);
    if (!result.success) return { fieldErrors: fieldErrors(result.error.issues) };
    const { _id: _, ...values } = result.data as Values;
    return { mutation: { kind: 'create', id: context.id, values } };
  }
  const edited = editedFields(context);
  const result = context.resource.update.safeParse(pick(context.values, edited));
  if (!result.success) return { fieldErrors: fieldErrors(result.error.issues) };
  return { mutation: { kind: 'update', id: context.id, values: result.data as Values, baseVersion: context.version ?? 0 } };
}

type Refusal = Extract<Outcome, { status: 'failed' | 'conflict' }>;

const { readRecord, fetchRecord, submit, dropLocal } = unprovidedActors;

const editor = setup({
  types: {} as { context: EditorContext; events: EditorEvent; input: EditorInput },
  actors: { readRecord, fetchRecord, submit, dropLocal },
  guards: {
    isNew: ({ context }) => context.isNew,
    hasCopy: ({ event }) => event.type === 'xstate.done.actor.readRecord' && event.output !== null,
    notMadeYet: ({ context, event }) =>
      context.resource.singleton === true && event.type === 'xstate.error.actor.fetchRecord' && (event.error as { status?: unknown } | null)?.status === 404,
    // An existing record with nothing edited has nothing to send.
    nothingToSave: ({ context }) => !context.isNew && editedFields(context).length === 0,
    invalid: ({ context }) => check(context).fieldErrors !== undefined,
    restoresOriginal: ({ context, event }) => {
      if (event.type === 'record.restore') return editedFields({ original: context.original, values: restored(context, event.values) }).length === 0;
      if (event.type !== 'field.change') return false;
      return editedFields({ original: context.original, values: { ...context.values, [event.name]: event.value } }).length === 0;
    },
    isDone: ({ event }) => event.type === 'xstate.done.actor.submit' && event.output.status === 'done',
    isQueued: ({ event }) => event.type === 'xstate.done.actor.submit' && event.output.status === 'queued',
    newerOnServer: ({ context, event }) => event.type === 'xstate.done.actor.fetchRecord' && (event.output as Row).version > (context.version ?? 0),
    // A conflict on an update offers the choice; without the server's version (deleted meanwhile) or on a create there is none.
    isResolvable: ({ context, event }) =>
      event.type === 'xstate.done.actor.submit' && event.output.status === 'conflict' && event.output.current !== null && !context.isNew,
  },
  actions: {
    notify: (_, { kind, message }: { kind: ToastKind; message: string }) => toast[kind](message),
    // The row's id too: a singleton's one record is asked for without one.
    adopt: assign(({ context }, { row, cachedAt }: { row: Row; cachedAt: number | null }) => {
      const values = valuesOf(row, context.original);
      return { id: row.id, values, original: values, version: row.version, cachedAt, loadError: null, loaded: row };
    }),
    setField: assign(({ context, event }) => {
      if (event.type !== 'field.change') return {};
      const { [event.name]: _, ...others } = context.fieldErrors;
      return { values: { ...context.values, [event.name]: event.value }, fieldErrors: others };
    }),
    restoreValues: assign(({ context, event }) => (event.type === 'record.restore' ? { values: restored(context, event.values), fieldErrors: {}, error: null } : {})),
    showInvalid: assign(({ context }) => ({ fieldErrors: check(context).fieldErrors ?? {} })),
    clearErrors: assign({ fieldErrors: {}, error: null }),
    // The server's field errors go to their fields; its message shows above the form only when no field carries it.
    showRefusal: assign(({ context }, outcome: Refusal) => {
      const errors = outcome.status === 'failed' ? fieldErrors(outcome.errors) : {};
      const atField = Object.keys(errors).some((name) => name in context.values);
      return { fieldErrors: errors, error: atField ? null : outcome.message };
    }),
  },
});

/** Where the form accepts input: editing, and after a failed save. On the form region, so a change never stops a refresh. */
const { on: editable } = editor.createStateConfig({
  on: {
    'field.change': [
      { guard: 'restoresOriginal', target: '#editor.editing.form.clean', actions: 'setField' },
      { target: '#editor.editing.form.dirty', actions: 'setField' },
    ],
    'record.save': [{ guard: 'nothingToSave' }, { guard: 'invalid', actions: 'showInvalid' }, { target: '#editor.saving', actions: 'clearErrors' }],
    // Taken in as if typed, then saved as any edit is.
    'record.restore': [
      { guard: 'isNew' },
      { guard: 'restoresOriginal', target: '#editor.editing.form.clean', actions: 'restoreValues' },
      { target: '#editor.editing.form.dirty', actions: ['restoreValues', editor.raise({ type: 'record.save' })] },
    ],
  },
});

const refreshFromServer = editor.spawnChild('fetchRecord', {
  id: 'fetchRecord',
  input: ({ context }) => ({ resource: context.resource, id: context.id }),
});

/**
 * One editor for any resource (DESIGN §7): a record shows from this device's copy at once and is
 * refreshed from the server while the form stays clean; a save is checked with the resource's schema,
 * handed to the outbox, and ends saved, queued (offline), in a conflict (keep mine / take theirs) or
 * failed with the server's reasons at their fields. What the user typed is never thrown away.
 */
export const editorMachine = editor.createMachine({
  id: 'editor',
  context: ({ input }) => ({
    resource: input.resource,
    // A singleton's one record is read by no id ('': the store finds it) and adopts its own.
    id: input.id ?? (input.resource.singleton ? '' : uuidv7()),
    isNew: input.id === null && !input.resource.singleton,
    version: null,
    original: input.blank,
    values: input.blank,
    cachedAt: null,
    loadError: null,
    fieldErrors: {},
    error: null,
    current: null,
    saved: null,
    loaded: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'isNew', target: 'editing' }, { target: 'loading' }],
    },
    loading: {
      initial: 'reading',
      states: {
        reading: {
          entry: editor.spawnChild('readRecord', { id: 'readRecord', input: ({ context }) => ({ resource: context.resource, id: context.id }) }),
          exit: editor.stopChild('readRecord'),
          on: {
            'xstate.done.actor.readRecord': [
              {
                guard: 'hasCopy',
                target: '#editor.editing.refresh.running',
                actions: { type: 'adopt', params: ({ event }) => ({ row: event.output!.value, cachedAt: event.output!.fetchedAt }) },
              },
              { target: 'fetching' },
            ],
            'xstate.error.actor.readRecord': 'fetching',
          },
        },
        fetching: {
          entry: refreshFromServer,
          exit: editor.stopChild('fetchRecord'),
          on: {
            'xstate.done.actor.fetchRecord': {
              target: '#editor.editing',
              actions: { type: 'adopt', params: ({ event }) => ({ row: event.output, cachedAt: null }) },
            },
            'xstate.error.actor.fetchRecord': [
              // A website's singleton not made yet (its SEO before the first save): an empty form, whose save makes it.
              { guard: 'notMadeYet', target: '#editor.editing', actions: assign({ isNew: true, id: () => uuidv7() }) },
              { target: '#editor.loadFailed', actions: assign({ loadError: ({ event }) => reasonOf(event.error) }) },
            ],
          },
        },
      },
    },
    loadFailed: {
      on: { 'record.reload': { target: 'loading', actions: assign({ loadError: null }) } },
    },
    editing: {
      type: 'parallel',
      states: {
        form: {
          initial: 'clean',
          on: editable,
          states: { clean: {}, dirty: {} },
        },
        /**
         * A copy from this device is refreshed from the server while the user may already edit it;
         * `record.refresh` asks again (queued changes reached the server, an image was uploaded).
         */
        refresh: {
          initial: 'idle',
          // A record not on the server yet has nothing there to read.
          on: { 'record.refresh': { guard: ({ context }) => !context.isNew, target: '.running' } },
          states: {
            idle: {},
            running: {
              entry: refreshFromServer,
              exit: editor.stopChild('fetchRecord'),
              on: {
                'xstate.done.actor.fetchRecord': [
                  // Changed elsewhere under the user's edits (a live update, a sync): the choice now, not a refused save later.
                  {
                    guard: and([stateIn('#editor.editing.form.dirty'), 'newerOnServer']),
                    target: '#editor.conflict',
                    actions: assign(({ context, event }) => ({ current: event.output as Row, error: resourceText(context.resource, 'conflict') })),
                  },
                  // The user's edits win over a refresh of the version they are based on.
                  { guard: stateIn('#editor.editing.form.dirty'), target: 'idle' },
                  { target: 'idle', actions: { type: 'adopt', params: ({ event }) => ({ row: event.output, cachedAt: null }) } },
                ],
                // Offline means this device's copy, with its age; a failed second look at the server's stays as it was.
                'xstate.error.actor.fetchRecord': [{ guard: ({ context }) => context.cachedAt === null, target: 'idle' }, { target: 'offline' }],
              },
            },
            /** The server could not be reached: the copy stays on show, with its age. */
            offline: {},
          },
        },
      },
    },
    saving: {
      entry: editor.spawnChild('submit', {
        id: 'submit',
        input: ({ context }) => ({ resource: context.resource, mutation: check(context).mutation! }),
      }),
      exit: editor.stopChild('submit'),
      on: {
        'xstate.done.actor.submit': [
          {
            guard: 'isDone',
            target: 'saved',
            actions: [
              assign({ saved: ({ event }) => (event.output.status === 'done' ? event.output.row : null) }),
              {
                type: 'notify',
                params: ({ context }) => ({ kind: 'success', message: resourceText(context.resource, context.isNew ? 'created' : 'updated') }),
              },
            ],
          },
          // Offline saving is normal: the header's count of waiting changes says so, not a toast per save.
          { guard: 'isQueued', target: 'queued' },
          {
            guard: 'isResolvable',
            target: 'conflict',
            actions: assign(({ event }) => {
              const outcome = event.output as Extract<Outcome, { status: 'conflict' }>;
              return { current: outcome.current, error: outcome.message };
            }),
          },
          { target: 'failed', actions: { type: 'showRefusal', params: ({ event }) => event.output as Refusal } },
        ],
        'xstate.error.actor.submit': {
          target: 'failed',
          actions: assign({ error: ({ context }) => resourceText(context.resource, context.isNew ? 'createFailed' : 'updateFailed') }),
        },
      },
    },
    /** The server refused, or the outbox could not take it: the input stays for another try. */
    failed: {
      on: editable,
    },
    conflict: {
      on: {
        'conflict.keepMine': {
          target: 'saving',
          actions: assign(({ context }) => ({ version: context.current?.version ?? context.version, current: null, error: null })),
        },
        'conflict.takeTheirs': {
          target: 'editing',
          actions: [
            // The conflicted change leaves the outbox too, or the sync panel would still offer it.
            spawnChild('dropLocal', { input: ({ context }) => ({ resource: context.resource, id: context.id }) }),
            assign(({ context }) => {
              const values = context.current ? valuesOf(context.current, context.original) : context.values;
              return { values, original: values, version: context.current?.version ?? context.version, current: null, error: null, cachedAt: null };
            }),
          ],
        },
      },
    },
    saved: { type: 'final' },
    /** In the outbox on this device; the form may leave. */
    queued: { type: 'final' },
  },
});

/** Whether leaving now would lose input: edits not yet handed to the outbox. */
export function hasUnsavedChanges(snapshot: SnapshotFrom<typeof editorMachine>): boolean {
  const handedOver = snapshot.matches('saving') || snapshot.status === 'done';
  return !handedOver && editedFields(snapshot.context).length > 0;
}
