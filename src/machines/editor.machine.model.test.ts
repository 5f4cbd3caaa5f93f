import { i18n } from '@lingui/core';
import { createTestModel } from '@xstate/graph';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { ApiError } from '../api/request';
import { subcategories } from '../contract/resources/catalogs';
import type { Cached, Outcome, Row } from '../db/resource-store';
import { editedFields, editorMachine, hasUnsavedChanges, type EditorEvent, type EditorInput, type Values } from './editor.machine';
import type { ToastKind } from './toast.machine';

const ID = '0190a1b2-0000-7000-8000-0000000000b1';
const CATEGORY = '0190a1b2-0000-7000-8000-0000000000c1';
const CACHED_AT = Date.parse('2026-03-01T10:00:00Z');
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const row = (name: string, version: number): Row =>
  ({ id: ID, name, description: 'Small shops', categoryId: CATEGORY, version, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' }) as Row;

const COPY: Cached<Row> = { value: row('Bistro', 4), fetchedAt: CACHED_AT };
const FRESH = row('Bistro', 4);
const THEIRS = row('Brasserie', 5);

const OUTCOMES: Outcome[] = [
  { status: 'done', row: row('Bakery', 5) },
  { status: 'queued' },
  { status: 'conflict', current: THEIRS, message: 'Someone else changed this subcategory in the meantime.' },
  // Deleted meanwhile: nothing to take, nothing to keep on top of.
  { status: 'conflict', current: null, message: 'Not found' },
  { status: 'failed', message: 'Some fields are not valid', errors: [{ path: 'body.name', message: 'This value is already in use' }] },
  { status: 'failed', message: 'You are not allowed to do this.', errors: [] },
];

const BLANK: Values = { name: '', description: '', categoryId: '' };

interface Start {
  name: string;
  input: EditorInput;
  /** Field edits the user makes; the model combines them. */
  edits: EditorEvent[];
}

const STARTS: Start[] = [
  {
    name: 'a new record',
    input: { resource: subcategories, id: null, blank: BLANK },
    edits: [
      { type: 'field.change', name: 'name', value: ' Bakery ' },
      { type: 'field.change', name: 'name', value: '' },
      { type: 'field.change', name: 'categoryId', value: CATEGORY },
    ],
  },
  {
    name: 'an existing record',
    input: { resource: subcategories, id: ID, blank: BLANK },
    edits: [
      { type: 'field.change', name: 'name', value: ' Bakery ' },
      { type: 'field.change', name: 'name', value: '' },
      // Back to what was loaded.
      { type: 'field.change', name: 'name', value: 'Bistro' },
      // A revision from its history: an earlier name, and one that is what was loaded.
      { type: 'record.restore', values: { name: 'Bistrot', description: 'Small shops', categoryId: CATEGORY, id: ID } },
      { type: 'record.restore', values: { name: 'Bistro', description: 'Small shops', categoryId: CATEGORY } },
    ],
  },
];

const SETTLEMENTS = [
  { type: 'xstate.done.actor.readRecord', output: null, actorId: 'readRecord' },
  { type: 'xstate.done.actor.readRecord', output: COPY, actorId: 'readRecord' },
  { type: 'xstate.error.actor.readRecord', error: new Error('IndexedDB is closed'), actorId: 'readRecord' },
  { type: 'xstate.done.actor.fetchRecord', output: FRESH, actorId: 'fetchRecord' },
  { type: 'xstate.error.actor.fetchRecord', error: new ApiError('Network error or server unavailable', 0), actorId: 'fetchRecord' },
  ...OUTCOMES.map((output) => ({ type: 'xstate.done.actor.submit', output, actorId: 'submit' })),
  { type: 'xstate.error.actor.submit', error: new Error('IndexedDB is closed'), actorId: 'submit' },
] as EditorEvent[];

type Snapshot = SnapshotFrom<typeof editorMachine>;
type Actors = Required<Parameters<typeof editorMachine.provide>[0]>['actors'];

// Path generation resolves the toasts' parameters, which are translated messages.
i18n.loadAndActivate({ locale: 'en', messages: {} });

/** Everything a guard or the screen reads, without the generated id. */
const observed = (state: Snapshot) => {
  const { values, original, version, cachedAt, loadError, fieldErrors, error, current } = state.context;
  return { value: state.value, values, original, version, cachedAt, loadError, fieldErrors, error, current: current?.version ?? null };
};

function detail(event: Record<string, unknown>): string {
  if (event.type === 'field.change') return `${String(event.name)}=${JSON.stringify(event.value)}`;
  if ('output' in event) {
    const output = event.output as Record<string, unknown> | null;
    if (output === null) return 'nothing';
    if (!('status' in output)) return 'value' in output ? 'copy' : 'row';
    if (output.status === 'conflict' && output.current === null) return 'conflict, gone';
    return `${String(output.status)}${'errors' in output && (output.errors as unknown[]).length ? ', at a field' : ''}`;
  }
  return 'error' in event ? (event.error as Error).message : '';
}

/** "field.change name=\"Bakery\" → record.save → done.actor.submit queued" */
function describePath(steps: readonly { event: EventObject }[]): string {
  return steps.slice(1).map(({ event }) => `${event.type.replace('xstate.', '')} ${detail(event as never)}`.trim()).join(' → ') || 'start';
}

type Where = Snapshot['value'];
const editing = (form: 'clean' | 'dirty', refresh: 'idle' | 'running' | 'offline' = 'idle'): Where => ({ editing: { form, refresh } });

/**
 * Where the editor must be after `event`, from where it was: the form's rules written out apart from
 * the machine. The path's own state is the machine's answer, so comparing with it proves nothing.
 */
function expectedAfter(before: Snapshot, event: EditorEvent): Where {
  const { context } = before;
  const at = (state: string) => before.matches(state as never);
  const refresh = (before.value as { editing?: { refresh: 'idle' | 'running' | 'offline' } }).editing?.refresh ?? 'idle';
  const form = (values: Values) => (editedFields({ original: context.original, values }).length > 0 ? 'dirty' : 'clean');
  switch (event.type) {
    case 'xstate.done.actor.readRecord':
      if (!at('loading.reading')) break;
      // This device's copy shows at once and the server is asked meanwhile; without one, the server only.
      return event.output ? editing('clean', 'running') : { loading: 'fetching' };
    case 'xstate.error.actor.readRecord':
      return at('loading.reading') ? { loading: 'fetching' } : before.value;
    case 'xstate.done.actor.fetchRecord':
      if (at('loading.fetching')) return editing('clean');
      // A refresh never turns typed input into the server's: the form stays as it was.
      return at('editing.refresh.running') ? editing(form(context.values), 'idle') : before.value;
    case 'xstate.error.actor.fetchRecord':
      if (at('loading.fetching')) return 'loadFailed';
      // Without a copy on show nothing is stale; a copy that could not be refreshed is shown as offline.
      return at('editing.refresh.running') ? editing(form(context.values), context.cachedAt === null ? 'idle' : 'offline') : before.value;
    case 'record.reload':
      return at('loadFailed') ? { loading: 'reading' } : before.value;
    case 'record.refresh':
      return at('editing') && !context.isNew ? editing(form(context.values), 'running') : before.value;
    case 'field.change': {
      if (!at('editing') && !at('failed')) break;
      return editing(form({ ...context.values, [event.name]: event.value }), at('editing') ? refresh : 'idle');
    }
    case 'record.restore': {
      if ((!at('editing') && !at('failed')) || context.isNew) break;
      // The fields the form edits take the revision's values; a change is saved at once, as if typed and saved.
      const values = { ...context.values, ...Object.fromEntries(Object.keys(context.original).filter((name) => name in event.values).map((name) => [name, event.values[name]])) };
      if (editedFields({ original: context.original, values }).length === 0) return editing('clean', at('editing') ? refresh : 'idle');
      return context.resource.update.safeParse(values).success ? 'saving' : editing('dirty', at('editing') ? refresh : 'idle');
    }
    case 'record.save': {
      if (!at('editing') && !at('failed')) break;
      const edited = editedFields(context);
      if (!context.isNew && edited.length === 0) break;
      const valid = context.isNew
        ? context.resource.create.safeParse(context.values).success
        : context.resource.update.safeParse(Object.fromEntries(edited.map((name) => [name, context.values[name]]))).success;
      return valid ? 'saving' : before.value;
    }
    case 'xstate.done.actor.submit': {
      if (!at('saving')) break;
      const outcome = event.output;
      if (outcome.status === 'done') return 'saved';
      if (outcome.status === 'queued') return 'queued';
      // Keep mine or take theirs needs theirs, and a record the server knew before.
      return outcome.status === 'conflict' && outcome.current !== null && !context.isNew ? 'conflict' : 'failed';
    }
    case 'xstate.error.actor.submit':
      return at('saving') ? 'failed' : before.value;
    case 'conflict.keepMine':
      return at('conflict') ? 'saving' : before.value;
    case 'conflict.takeTheirs':
      return at('conflict') ? editing('clean') : before.value;
  }
  return before.value;
}

type StateTest = (state: Snapshot) => void;

/** @xstate/graph runs '*' only where no other key matches: the common checks run in every state here. */
const everyState = (common: StateTest, specific: Record<string, StateTest>): Record<string, StateTest> => ({
  '*': common,
  ...Object.fromEntries(
    Object.entries(specific).map(([key, test]) => [
      key,
      (state: Snapshot) => {
        common(state);
        test(state);
      },
    ]),
  ),
});

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe.each(STARTS)('editorMachine for $name', (start) => {
  const model = createTestModel(editorMachine, {
    input: start.input,
    events: [...start.edits, ...SETTLEMENTS],
    serializeState: (state, event, previous) =>
      JSON.stringify({
        ...observed(state),
        via: event && previous && JSON.stringify(previous.value) !== JSON.stringify(state.value) ? [event.type, previous.value] : null,
      }),
  });

  it.each(model.getShortestPaths().map((path) => [describePath(path.steps), path] as const))('%s', async (_name, path) => {
    const pending = new Map<string, { input: unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
    const fake = (src: string) =>
      fromPromise<unknown, unknown>(({ input }) => new Promise((resolve, reject) => pending.set(src, { input, resolve, reject })));
    const notified: { kind: ToastKind; message: string }[] = [];
    const actor = createActor(
      editorMachine.provide({
        actors: { readRecord: fake('readRecord'), fetchRecord: fake('fetchRecord'), submit: fake('submit'), dropLocal: fake('dropLocal') } as unknown as Actors,
        actions: { notify: (_, notice) => notified.push(notice) },
      }),
      { input: start.input },
    ).start();
    const context = () => actor.getSnapshot().context;
    const inputOf = (src: string) => pending.get(src)?.input;
    let typed: Values = context().values;
    let submitted = 0;
    let expected: Where = start.input.id === null ? editing('clean') : { loading: 'reading' };

    const send = async ({ event }: { event: EventObject }) => {
      expected = expectedAfter(actor.getSnapshot(), event as EditorEvent);
      actor.send(event as EditorEvent);
      await vi.advanceTimersByTimeAsync(0);
    };
    const settle = async ({ event }: { event: EventObject }) => {
      expected = expectedAfter(actor.getSnapshot(), event as EditorEvent);
      const settled = event as Extract<EditorEvent, { type: `xstate.${string}` }>;
      const [, outcome, , src = ''] = settled.type.split('.');
      if ('output' in settled) pending.get(src)?.resolve(settled.output);
      else if (outcome === 'error') pending.get(src)?.reject(settled.error);
      pending.delete(src);
      await vi.advanceTimersByTimeAsync(0);
    };

    await path.test({
      events: {
        'field.change': async (step) => {
          await send(step);
          const { name, value } = step.event as Extract<EditorEvent, { type: 'field.change' }>;
          expect(context().values[name]).toBe(value);
          // Typing at a field takes its error away.
          expect(context().fieldErrors[name]).toBeUndefined();
          typed = context().values;
        },
        'record.save': async (step) => {
          const before = pending.has('submit');
          await send(step);
          if (actor.getSnapshot().matches('saving')) {
            submitted += 1;
            return;
          }
          // Refused before asking anyone: nothing is sent, the input stays, the schema's reasons show.
          expect(pending.has('submit')).toBe(before);
          expect(context().values).toEqual(typed);
          if (!start.input.id || editedFields(context()).length) expect(Object.keys(context().fieldErrors).length).toBeGreaterThan(0);
        },
        'record.restore': async (step) => {
          await send(step);
          if (actor.getSnapshot().matches('saving')) submitted += 1;
          typed = context().values;
        },
        'record.reload': send,
        'record.refresh': async (step) => {
          const before = context().loaded;
          const wasEditing = actor.getSnapshot().matches('editing');
          await send(step);
          expect(context().loaded).toBe(before);
          // A loaded record is read from the server again; a new one, or one past editing, ignores it.
          expect(actor.getSnapshot().matches({ editing: { refresh: 'running' } })).toBe(wasEditing && start.input.id !== null);
        },
        'conflict.keepMine': async (step) => {
          await send(step);
          // Mine again, on top of the server's version.
          expect((inputOf('submit') as { mutation: { baseVersion: number } }).mutation.baseVersion).toBe(THEIRS.version);
          submitted += 1;
        },
        'conflict.takeTheirs': async (step) => {
          await send(step);
          expect(context().values).toMatchObject({ name: 'Brasserie' });
          expect(context().version).toBe(5);
          // The outbox drops this device's refused change with it.
          expect(inputOf('dropLocal')).toMatchObject({ id: context().id });
          typed = context().values;
        },
        ...Object.fromEntries(SETTLEMENTS.map(({ type }) => [type, settle])),
        'xstate.done.actor.readRecord': async (step) => {
          await settle(step);
          typed = context().values;
        },
        'xstate.done.actor.fetchRecord': async (step) => {
          const dirty = actor.getSnapshot().matches({ editing: { form: 'dirty' } });
          await settle(step);
          // A refresh never overwrites what the user typed.
          if (dirty) expect(context().values).toEqual(typed);
          else typed = context().values;
        },
      },
      states: everyState((state: Snapshot) => {
          const snapshot = actor.getSnapshot();
          expect(snapshot.value).toEqual(expected);
          // The path's next events were planned from this state: the run must be in it to take them.
          expect(observed(snapshot)).toEqual(observed(state));
          const { id, values, fieldErrors } = snapshot.context;
          if (start.input.id === null) expect(id).toMatch(UUID_V7);
          else expect(id).toBe(ID);
          // Nothing a user typed is lost, whatever the outcome; leaving asks first while edits are not handed over.
          if (!snapshot.matches('loading') && !snapshot.matches('loadFailed')) expect(values).toEqual(typed);
          expect(hasUnsavedChanges(snapshot)).toBe(!snapshot.matches('saving') && snapshot.status !== 'done' && editedFields(snapshot.context).length > 0);
          for (const message of Object.values(fieldErrors)) expect(message).toMatch(/^field\.|already in use/);
        }, {
        'loading.reading': () => expect(inputOf('readRecord')).toEqual({ resource: subcategories, id: ID }),
        'loading.fetching': () => expect(inputOf('fetchRecord')).toEqual({ resource: subcategories, id: ID }),
        'editing.refresh.running': () => {
          // What is on show (this device's copy, or the server's asked again) stays editable while the server is asked.
          expect(context().loaded).not.toBeNull();
          expect(inputOf('fetchRecord')).toEqual({ resource: subcategories, id: ID });
        },
        // Offline: the copy stays, with its age.
        'editing.refresh.offline': () => expect(context().cachedAt).toBe(CACHED_AT),
        saving: () => {
          const { mutation } = inputOf('submit') as { mutation: Record<string, unknown> };
          const { isNew, version, values, original } = context();
          const trimmed = (names: string[]) => Object.fromEntries(names.map((name) => [name, String(values[name]).trim()]));
          if (isNew) {
            expect(mutation).toEqual({ kind: 'create', id: context().id, values: trimmed(Object.keys(values)) });
          } else {
            // Only the edited fields, trimmed, against the version the edits are based on.
            const edited = Object.keys(values).filter((name) => values[name] !== original[name]);
            expect(edited.length).toBeGreaterThan(0);
            expect(mutation).toEqual({ kind: 'update', id: ID, values: trimmed(edited), baseVersion: version });
          }
          expect(submitted).toBeGreaterThan(0);
        },
        saved: () => {
          expect(notified.at(-1)).toEqual({ kind: 'success', message: `Subcategory ${start.input.id ? 'updated' : 'created'} successfully` });
          expect(context().saved).toEqual(row('Bakery', 5));
        },
        // Offline saving is normal: the header counts what waits; no toast says it once per save.
        queued: () => expect(notified).toEqual([]),
        conflict: () => {
          expect(start.input.id).not.toBeNull();
          expect(context().current).toEqual(THEIRS);
          expect(context().error).toBe('Someone else changed this subcategory in the meantime.');
        },
        failed: () => {
          const { error, fieldErrors } = context();
          // The reason shows once: at its field when the server names one, above the form otherwise.
          if (fieldErrors.name) expect(error).toBeNull();
          else expect(error).toMatch(/not allowed|Not found|changed this subcategory|Failed to (create|update) subcategory/);
        },
        loadFailed: () => expect(context().loadError).toBe('Network error or server unavailable'),
      }),
    });
    actor.stop();
  });
});
