import { i18n } from '@lingui/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { languages } from '../contract/resources/catalogs';
import { settings } from '../contract/resources/settings';
import type { Mutation, Outcome, Row } from '../db/resource-store';
import { editedFields, editorMachine, type Values } from './editor.machine';
import type { RecordRequest, SubmitRequest } from './store-actors';

type Actors = Required<Parameters<typeof editorMachine.provide>[0]>['actors'];

const BLANK: Values = { name: '', code: '', content: {} };
const ID = '0190a1b2-0000-7000-8000-0000000000d1';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});

function start(id: string | null, outcomes: Outcome[], row?: Row) {
  const sent: Mutation[] = [];
  const actor = createActor(
    editorMachine.provide({
      actors: {
        readRecord: fromPromise(async () => (row ? { value: row, fetchedAt: 0 } : null)),
        fetchRecord: fromPromise(() => new Promise<Row>(() => {})),
        submit: fromPromise(async ({ input }: { input: SubmitRequest }) => {
          sent.push(input.mutation);
          return outcomes.shift()!;
        }),
      } as unknown as Actors,
      actions: { notify: () => {} },
    }),
    { input: { resource: languages, id, blank: BLANK } },
  ).start();
  const change = (name: string, value: unknown) => actor.send({ type: 'field.change', name, value });
  return { actor, sent, change };
}

describe('editorMachine validation', () => {
  it('checks with the resource’s create schema and keeps the catalogue ids for the fields', async () => {
    const { actor, sent, change } = start(null, []);
    change('code', 'English');
    change('content', { de: { name: '' } });
    actor.send({ type: 'record.save' });

    expect(actor.getSnapshot().context.fieldErrors).toEqual({
      name: 'field.required',
      code: 'field.languageCodeFormat',
      content: 'field.required',
    });
    expect(sent).toEqual([]);
    expect(actor.getSnapshot().matches({ editing: { form: 'dirty' } })).toBe(true);
  });

  it('keeps the generated id across attempts, so an entry made offline stays one entity', async () => {
    const refused: Outcome = { status: 'failed', message: 'Some fields are not valid', errors: [{ path: 'body.code', message: 'This value is already in use' }] };
    const { actor, sent, change } = start(null, [refused, { status: 'queued' }]);
    change('name', 'English');
    change('code', 'en');
    actor.send({ type: 'record.save' });
    await settle();
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ code: 'This value is already in use' });

    change('code', 'en-GB');
    actor.send({ type: 'record.save' });
    await settle();

    expect(actor.getSnapshot().matches('queued')).toBe(true);
    expect(sent.map((mutation) => mutation.id)).toEqual([actor.getSnapshot().context.id, actor.getSnapshot().context.id]);
    expect(sent[1]).toMatchObject({ kind: 'create', values: { name: 'English', code: 'en-GB', content: {} } });
  });

  it('sends an edited translation map whole, and ignores a reordering of it', async () => {
    const row = { id: ID, name: 'English', code: 'en', content: { de: { name: 'Englisch' }, fr: { name: 'Anglais' } }, version: 2 } as unknown as Row;
    const { actor, sent, change } = start(ID, [{ status: 'done', row }], row);
    await settle();

    change('content', { fr: { name: 'Anglais' }, de: { name: 'Englisch' } });
    expect(editedFields(actor.getSnapshot().context)).toEqual([]);
    expect(actor.getSnapshot().matches({ editing: { form: 'clean' } })).toBe(true);

    change('content', { de: { name: 'Englisch' }, fr: { name: 'Anglais' }, es: { name: 'Inglés' } });
    actor.send({ type: 'record.save' });
    await settle();
    expect(sent).toEqual([
      { kind: 'update', id: ID, baseVersion: 2, values: { content: { de: { name: 'Englisch' }, fr: { name: 'Anglais' }, es: { name: 'Inglés' } } } },
    ]);
  });
});

describe('editorMachine on a singleton', () => {
  it('loads the one record without an id, takes the id it comes with, and saves an update of it', async () => {
    const row = { id: ID, cmsName: 'Acme', helpUrl: '', supportUrl: '', defaultLanguage: 'en', mailFrom: '', version: 4 } as unknown as Row;
    const asked: RecordRequest[] = [];
    const sent: Mutation[] = [];
    const actor = createActor(
      editorMachine.provide({
        actors: {
          readRecord: fromPromise(async () => null),
          fetchRecord: fromPromise(async ({ input }: { input: RecordRequest }) => {
            asked.push(input);
            return row;
          }),
          submit: fromPromise(async ({ input }: { input: SubmitRequest }): Promise<Outcome> => {
            sent.push(input.mutation);
            return { status: 'done', row };
          }),
        } as unknown as Actors,
        actions: { notify: () => {} },
      }),
      { input: { resource: settings, id: null, blank: { cmsName: '', helpUrl: '', supportUrl: '', defaultLanguage: 'en', mailFrom: '' } } },
    ).start();
    await settle();

    expect(asked).toEqual([{ resource: settings, id: '' }]);
    expect(actor.getSnapshot().context).toMatchObject({ isNew: false, id: ID, version: 4, values: { cmsName: 'Acme' } });

    actor.send({ type: 'field.change', name: 'cmsName', value: 'Agentur Nord' });
    actor.send({ type: 'record.save' });
    await settle();
    expect(sent).toEqual([{ kind: 'update', id: ID, values: { cmsName: 'Agentur Nord' }, baseVersion: 4 }]);
  });
});

describe('editorMachine restoring a revision', () => {
  const row = { id: ID, name: 'Englisch', code: 'en', content: {}, version: 5 } as unknown as Row;

  it('saves the form’s fields as the revision left them, as an update from the version on show', async () => {
    const { actor, sent } = start(ID, [{ status: 'done', row }], row);
    await settle();
    // A revision's values hold computed fields too: only what the form edits is sent.
    actor.send({ type: 'record.restore', values: { name: 'English', code: 'en', content: {}, id: ID, slug: 'english' } });
    await settle();
    expect(sent).toEqual([{ kind: 'update', id: ID, baseVersion: 5, values: { name: 'English' } }]);
    expect(actor.getSnapshot().matches('saved')).toBe(true);
  });

  it('ends in the usual conflict when the record changed since, with the restored values kept to resend', async () => {
    const current = { ...row, name: 'Anglais', version: 6 } as unknown as Row;
    const { actor, sent } = start(ID, [{ status: 'conflict', current, message: 'Changed meanwhile' }], row);
    await settle();
    actor.send({ type: 'record.restore', values: { name: 'English' } });
    await settle();
    expect(sent).toHaveLength(1);
    expect(actor.getSnapshot().matches('conflict')).toBe(true);
    expect(actor.getSnapshot().context.values.name).toBe('English');
  });

  it('sends nothing when the revision is how the record is now', async () => {
    const { actor, sent } = start(ID, [], row);
    await settle();
    actor.send({ type: 'record.restore', values: { name: 'Englisch', code: 'en', content: {} } });
    await settle();
    expect(sent).toEqual([]);
  });
});

describe('editorMachine when the record changed elsewhere (a live update)', () => {
  const row = { id: ID, name: 'Englisch', code: 'en', content: {}, version: 5 } as unknown as Row;
  const theirs = { ...row, code: 'eng', version: 6 } as unknown as Row;

  function started(server: Row[]) {
    const actor = createActor(
      editorMachine.provide({
        actors: {
          readRecord: fromPromise(async () => null),
          fetchRecord: fromPromise(async () => server.shift()!),
          submit: fromPromise(async (): Promise<Outcome> => ({ status: 'done', row })),
        } as unknown as Actors,
        actions: { notify: () => {} },
      }),
      { input: { resource: languages, id: ID, blank: BLANK } },
    ).start();
    return actor;
  }

  it('shows the new version in a form without edits', async () => {
    const actor = started([row, theirs]);
    await settle();
    actor.send({ type: 'record.refresh' });
    await settle();
    expect(actor.getSnapshot().context).toMatchObject({ version: 6, values: { code: 'eng' } });
  });

  it('offers the conflict choice under edits, keeping what was typed, instead of a later save overwriting the other change', async () => {
    const actor = started([row, theirs]);
    await settle();
    actor.send({ type: 'field.change', name: 'name', value: 'English' });
    actor.send({ type: 'record.refresh' });
    await settle();
    expect(actor.getSnapshot().matches('conflict')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ current: theirs, values: { name: 'English' }, error: 'Someone else changed this language in the meantime.' });
  });
});
