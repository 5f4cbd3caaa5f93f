import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, ValidationError } from '../api/send';
import type { Success } from '../contract/envelope';
import { orderTag } from '../contract/order';
import { clearLocalData, db, SitekeeperDatabase, type OutboxEntry, type WireRow } from './database';
import { enqueue, entityKey, type NewEntry } from './outbox';
import { rememberServerRow } from './outbox-cache';
import { discard, keepMine, mergeOrder, retry, takeTheirs } from './outbox-conflicts';
import { drain, OFFLINE_AFTER, type OutboxRequest } from './outbox-drain';
import { enqueueReorder } from './outbox-reorder';
import { BACKOFF_MS, LOST_BACKOFF_MS, MAX_ATTEMPTS } from './outbox-verdict';

const A = '0190d6b0-0000-7000-8000-00000000000a';
const B = '0190d6b0-0000-7000-8000-00000000000b';
const C = '0190d6b0-0000-7000-8000-00000000000c';
const D = '0190d6b0-0000-7000-8000-00000000000d';

function row(id: string, version: number, fields: Record<string, unknown> = {}): WireRow {
  const at = '2024-05-01T10:00:00.000Z';
  return { _id: id, version, createdAt: at, updatedAt: at, name: `Name ${version}`, description: '', ...fields };
}

const label = { item: 'category', title: '' };

function create(id: string, body: Record<string, unknown> = { name: 'New' }): NewEntry {
  return { resource: 'categories', entityId: id, kind: 'create', method: 'POST', path: '/api/categories', itemPath: `/api/categories/${id}`, body: { ...body, _id: id }, baseVersion: null, label, fallback: 'Failed to create category' };
}

function update(id: string, baseVersion: number, body: Record<string, unknown>): NewEntry {
  const path = `/api/categories/${id}`;
  return { resource: 'categories', entityId: id, kind: 'update', method: 'PUT', path, itemPath: path, body, baseVersion, label, fallback: 'Failed to update category' };
}

function remove(id: string, baseVersion: number): NewEntry {
  const path = `/api/categories/${id}`;
  return { resource: 'categories', entityId: id, kind: 'delete', method: 'DELETE', path, itemPath: path, baseVersion, label, fallback: 'Failed to delete category' };
}

type Answer = (call: OutboxRequest) => Success<unknown> | Error;

/**
 * A server in a function: every call is recorded; the answer is the next scripted one, or else an
 * echo of the body as the entity at the version after If-Match (1 for a create).
 */
function scriptedServer(...answers: Answer[]) {
  const calls: OutboxRequest[] = [];
  const send = vi.fn(async (call: OutboxRequest) => {
    calls.push(call);
    const answer = answers.shift() ?? echo;
    const result = answer(call);
    if (result instanceof Error) throw result;
    return result;
  });
  return { send, calls };
}

function versionOf(call: OutboxRequest): number {
  return call.headers['If-Match'] ? Number(call.headers['If-Match'].replaceAll('"', '')) : 0;
}

/** A JSON call's body (uploads: uploads.test.ts). */
const json = (call: OutboxRequest) => call.body as Record<string, unknown> | undefined;

function echo(call: OutboxRequest): Success<unknown> {
  const id = call.method === 'POST' ? String(json(call)?._id) : call.path.split('/').at(-1)!;
  return { success: true, data: call.method === 'DELETE' ? null : row(id, versionOf(call) + 1, json(call)) };
}

const conflict = (current: WireRow): Answer => () => new ApiError('Someone else changed this category in the meantime.', 409, { success: false, message: '…', data: current });
const status = (code: number, message = 'Nope'): Answer => () => new ApiError(message, code, { success: false, message });
const offline: Answer = () => new ApiError('Network error or server unavailable', 0, new TypeError('Failed to fetch'));

const entries = () => db.outbox.orderBy('seq').toArray();
const only = async (): Promise<OutboxEntry> => {
  const all = await entries();
  expect(all).toHaveLength(1);
  return all[0]!;
};
const record = async (id: string) => (await db.records.get(['categories', id]))?.row;

beforeEach(async () => {
  await clearLocalData();
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** Date.now() stands still until a test moves it (vi.setSystemTime); IndexedDB's own timers run. */
const freezeTime = () => vi.useFakeTimers({ toFake: ['Date'] });

describe('enqueue', () => {
  it('resolves once the entry is committed: another connection reads it', async () => {
    const seq = await enqueue(update(A, 3, { name: 'Renamed' }));

    const other = new SitekeeperDatabase();
    const stored = await other.outbox.get(seq!);
    other.close();
    expect(stored).toMatchObject({ entityId: A, kind: 'update', status: 'pending', baseVersion: 3, attempts: 0, body: { name: 'Renamed' } });
    expect(stored?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('rejects, and keeps nothing, when IndexedDB cannot store the entry', async () => {
    vi.spyOn(db.outbox, 'add').mockRejectedValue(new DOMException('Quota exceeded', 'QuotaExceededError'));

    await expect(enqueue(update(A, 3, { name: 'Renamed' }))).rejects.toThrow('Quota exceeded');
    expect(await db.outbox.count()).toBe(0);
  });

  it('gives every entry its own Idempotency-Key', async () => {
    await enqueue(update(A, 1, { name: 'One' }));
    await enqueue(update(A, 1, { name: 'Two' }));

    const [first, second] = await entries();
    expect(first!.idempotencyKey).not.toBe(second!.idempotencyKey);
  });
});

describe('drain', () => {
  it('sends an entity’s entries in the order they were made, each with the version the previous one produced', async () => {
    await enqueue(create(A, { name: 'Drinks' }));
    await enqueue(update(A, 1, { name: 'Cold drinks' }));
    await enqueue(update(A, 1, { description: 'Served cold' }));
    const { send, calls } = scriptedServer();

    const result = await drain(send);

    expect(calls.map((call) => [call.method, call.path, call.headers['If-Match']])).toEqual([
      ['POST', '/api/categories', undefined],
      ['PUT', `/api/categories/${A}`, '"1"'],
      ['PUT', `/api/categories/${A}`, '"2"'],
    ]);
    expect(calls[0]!.body).toEqual({ name: 'Drinks', _id: A });
    expect(new Set(calls.map((call) => call.headers['Idempotency-Key'])).size).toBe(3);
    expect(result).toMatchObject({ sent: 3, stopped: null });
    expect(await db.outbox.count()).toBe(0);
    expect(await record(A)).toMatchObject({ version: 3, description: 'Served cold' });
  });

  it('hands the entry’s translated fallback to send', async () => {
    await enqueue(update(A, 1, { name: 'x' }));
    const { send, calls } = scriptedServer();

    await drain(send);
    expect(calls[0]!.fallback).toBe('Failed to update category');
  });

  it('on a 409 keeps the entry as a conflict with the server’s row, holds the entity’s later entries and goes on with others', async () => {
    const theirs = row(A, 5, { name: 'Theirs' });
    await enqueue(update(A, 3, { name: 'Mine' }));
    await enqueue(update(A, 3, { description: 'Also mine' }));
    await enqueue(update(B, 1, { name: 'Other' }));
    const { send, calls } = scriptedServer(conflict(theirs));

    const result = await drain(send);

    expect(calls.map((call) => call.path)).toEqual([`/api/categories/${A}`, `/api/categories/${B}`]);
    expect(result).toMatchObject({ sent: 1, stopped: null });
    const [first, second] = await entries();
    expect(first).toMatchObject({ status: 'conflict', current: theirs, error: { message: 'Someone else changed this category in the meantime.' } });
    expect(second).toMatchObject({ status: 'pending', body: { description: 'Also mine' } });

    // Another drain still holds them.
    await drain(send);
    expect(calls).toHaveLength(2);
  });

  it('keep mine: sends the change again against the server’s version with a new key, then the held entries', async () => {
    const theirs = row(A, 5, { name: 'Theirs', description: 'Their text' });
    const seq = await enqueue(update(A, 3, { name: 'Mine' }));
    await enqueue(update(A, 3, { description: 'Mine too' }));
    const { send, calls } = scriptedServer(conflict(theirs));
    await drain(send);

    await keepMine(seq!);
    expect(await record(A)).toEqual(theirs);
    await drain(send);

    expect(calls.map((call) => call.headers['If-Match'])).toEqual(['"3"', '"5"', '"6"']);
    expect(calls[1]!.headers['Idempotency-Key']).not.toBe(calls[0]!.headers['Idempotency-Key']);
    expect(calls[1]!.body).toEqual({ name: 'Mine' });
    expect(await db.outbox.count()).toBe(0);
    expect(await record(A)).toMatchObject({ version: 7, description: 'Mine too' });
  });

  it('take theirs: drops the entity’s local changes and caches the server’s row', async () => {
    const theirs = row(A, 5, { name: 'Theirs' });
    const seq = await enqueue(update(A, 3, { name: 'Mine' }));
    await enqueue(update(A, 3, { description: 'Mine too' }));
    await enqueue(update(B, 1, { name: 'Other' }));
    const { send, calls } = scriptedServer(conflict(theirs), status(500));
    await drain(send);

    await takeTheirs(seq!);

    expect(await record(A)).toEqual(theirs);
    expect((await entries()).map((entry) => entry.entityId)).toEqual([B]);
    await drain(send);
    expect(calls.filter((call) => call.path.endsWith(A))).toHaveLength(1);
  });

  it('a conflict on a create is kept as an update of the entity the server already has', async () => {
    const theirs = row(A, 2, { name: 'Theirs' });
    const seq = await enqueue(create(A, { name: 'Mine' }));
    const { send, calls } = scriptedServer(conflict(theirs));
    await drain(send);

    await keepMine(seq!);
    await drain(send);
    expect(calls[1]).toMatchObject({ method: 'PUT', path: `/api/categories/${A}`, body: { name: 'Mine' }, headers: { 'If-Match': '"2"' } });
  });

  it('on another 4xx marks the entry failed with the server’s message and field errors, and holds the entity', async () => {
    const errors = [{ path: 'body.name', message: 'This value is already in use' }];
    await enqueue(update(A, 1, { name: 'Taken' }));
    await enqueue(update(A, 1, { description: 'Later' }));
    const { send, calls } = scriptedServer(() => new ValidationError('Some fields are not valid', errors, { success: false, errors }));

    await drain(send);

    const [first, second] = await entries();
    expect(first).toMatchObject({ status: 'failed', error: { message: 'Some fields are not valid', errors, status: 400 } });
    expect(second!.status).toBe('pending');
    expect(calls).toHaveLength(1);
  });

  it.each([403, 404, 422, 428])('a %i is a failure too, never dropped', async (code) => {
    await enqueue(update(A, 1, { name: 'x' }));
    await drain(scriptedServer(status(code, `Refused ${code}`)).send);

    expect(await only()).toMatchObject({ status: 'failed', error: { message: `Refused ${code}`, errors: [], status: code } });
  });

  it('retry sends a failed entry again with a new key', async () => {
    const seq = await enqueue(update(A, 1, { name: 'x' }));
    const { send, calls } = scriptedServer(status(403));
    await drain(send);

    await retry(seq!);
    const requeued = await only();
    expect(requeued.status).toBe('pending');
    expect(requeued.error).toBeUndefined();
    await drain(send);

    expect(calls).toHaveLength(2);
    expect(calls[1]!.headers['Idempotency-Key']).not.toBe(calls[0]!.headers['Idempotency-Key']);
    expect(await db.outbox.count()).toBe(0);
  });

  it('discard drops a failed entry and lets the entity’s next one go', async () => {
    const seq = await enqueue(update(A, 1, { name: 'x' }));
    await enqueue(update(A, 1, { description: 'fine' }));
    const { send, calls } = scriptedServer(status(403));
    await drain(send);

    await discard(seq!);
    await drain(send);

    expect(calls.map((call) => call.body)).toEqual([{ name: 'x' }, { description: 'fine' }]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('discarding a failed create drops the changes made to it since', async () => {
    const seq = await enqueue(create(A));
    await enqueue(update(A, 1, { description: 'x' }));
    await drain(scriptedServer(status(403)).send);

    await discard(seq!);
    expect(await db.outbox.count()).toBe(0);
  });

  it('on a 429 keeps the entry pending, counts no attempt and stops until the next try', async () => {
    await enqueue(update(A, 1, { name: 'x' }));
    await enqueue(update(B, 1, { name: 'y' }));
    const { send, calls } = scriptedServer(status(429));

    const result = await drain(send);

    expect(result).toMatchObject({ stopped: 'unavailable', retryAt: null });
    expect(calls).toHaveLength(1);
    expect((await entries()).map((entry) => [entry.status, entry.attempts, entry.retryAt])).toEqual([
      ['pending', 0, undefined],
      ['pending', 0, undefined],
    ]);

    await drain(send);
    expect(await db.outbox.count()).toBe(0);
  });

  it.each([
    ['a 503', status(503)],
    ['a 408', status(408)],
    ['a 409 for a key still in flight', status(409)],
  ])('on %s backs off that entity only, and goes on with the others', async (_case, answer) => {
    await enqueue(update(A, 1, { name: 'x' }));
    await enqueue(update(B, 1, { name: 'y' }));
    const { send, calls } = scriptedServer(answer);

    const before = Date.now();
    const result = await drain(send);

    expect(calls.map((call) => call.path)).toEqual([`/api/categories/${A}`, `/api/categories/${B}`]);
    const held = await only();
    expect(held).toMatchObject({ entityId: A, status: 'pending', attempts: 1 });
    expect(held.retryAt).toBeGreaterThanOrEqual(before + BACKOFF_MS[0]);
    expect(result).toMatchObject({ sent: 1, stopped: null, retryAt: held.retryAt });
  });

  it('on a 401 stops and keeps everything (the session is over)', async () => {
    await enqueue(update(A, 1, { name: 'x' }));
    const result = await drain(scriptedServer(status(401)).send);

    expect(result.stopped).toBe('unauthorized');
    expect((await only()).status).toBe('pending');
  });

  it('a delete of what the server no longer has is done', async () => {
    await rememberServerRow('categories', A, row(A, 1));
    await db.cache.put({ key: 'categories?x', resource: 'categories', query: {}, ids: [A, B], pagination: { currentPage: 1, totalPages: 1, totalItems: 2, itemsPerPage: 10 }, fetchedAt: 1 });
    await enqueue(remove(A, 1));

    await drain(scriptedServer(status(404)).send);

    expect(await db.outbox.count()).toBe(0);
    expect(await record(A)).toBeUndefined();
    expect(await db.cache.get('categories?x')).toMatchObject({ ids: [B], pagination: { totalItems: 1 } });
  });

  it('never runs twice at once: a second drain waits and sends nothing twice', async () => {
    await enqueue(update(A, 1, { name: 'x' }));
    await enqueue(update(B, 1, { name: 'y' }));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls: string[] = [];
    const send = async (call: OutboxRequest) => {
      calls.push(call.path);
      await gate;
      return echo(call);
    };

    const first = drain(send);
    const second = drain(send);
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    const results = await Promise.all([first, second]);

    expect(calls).toEqual([`/api/categories/${A}`, `/api/categories/${B}`]);
    expect(results.map((result) => result.sent)).toEqual([2, 0]);
  });

  it('records when it last delivered a change', async () => {
    await enqueue(update(A, 1, { name: 'x' }));
    await drain(scriptedServer().send);
    expect(await db.meta.get('lastSync')).toMatchObject({ at: expect.any(Number) });
  });
});

describe('changes after a refusal', () => {
  it('a new change to an entity whose change failed replaces it, folded, in its place', async () => {
    const failed = await enqueue(update(A, 2, { name: 'Taken', description: 'kept' }));
    await drain(scriptedServer(status(400)).send);

    const seq = await enqueue(update(A, 2, { name: 'Free' }));

    expect(seq).toBe(failed);
    const folded = await only();
    expect(folded).toMatchObject({ seq: failed, status: 'pending', body: { name: 'Free', description: 'kept' }, baseVersion: 2 });
    expect(folded.error).toBeUndefined();
  });

  it('a fixed create stays a create', async () => {
    await enqueue(create(A, { name: 'Taken' }));
    await drain(scriptedServer(status(400)).send);

    await enqueue(update(A, 1, { name: 'Free' }));
    expect(await only()).toMatchObject({ kind: 'create', method: 'POST', body: { name: 'Free', _id: A }, baseVersion: null });
  });

  it('deleting an entity whose create failed leaves nothing to send', async () => {
    await enqueue(create(A));
    await drain(scriptedServer(status(400)).send);

    expect(await enqueue(remove(A, 1))).toBeNull();
    expect(await db.outbox.count()).toBe(0);
  });

  it('an edit of the server’s version replaces a conflict (the editor’s keep-mine and edit-theirs)', async () => {
    await enqueue(update(A, 3, { name: 'Mine' }));
    await drain(scriptedServer(conflict(row(A, 5))).send);

    await enqueue(update(A, 5, { name: 'Mine again' }));
    expect(await only()).toMatchObject({ status: 'pending', baseVersion: 5, body: { name: 'Mine again' } });
  });

  it('an edit of an older version waits behind the conflict', async () => {
    await enqueue(update(A, 3, { name: 'Mine' }));
    await drain(scriptedServer(conflict(row(A, 5))).send);

    await enqueue(update(A, 3, { description: 'stale' }));
    expect((await entries()).map((entry) => entry.status)).toEqual(['conflict', 'pending']);
  });
});

describe('versions this device wrote itself', () => {
  it('an edit based on a version our own change replaced continues from the newest one', async () => {
    await rememberServerRow('categories', A, row(A, 1));
    await enqueue(update(A, 1, { name: 'First' }));
    await drain(scriptedServer().send);

    // An editor that still holds version 1 (its save was only queued) saves again.
    await enqueue(update(A, 1, { description: 'Second' }));
    expect((await only()).baseVersion).toBe(2);
  });

  it('but not past a version someone else wrote', async () => {
    await rememberServerRow('categories', A, row(A, 1));
    await enqueue(update(A, 1, { name: 'First' }));
    await drain(scriptedServer().send);
    await rememberServerRow('categories', A, row(A, 3, { name: 'Theirs' }));

    await enqueue(update(A, 1, { description: 'Second' }));
    expect((await only()).baseVersion).toBe(1);
  });
});

describe('an entity the server keeps failing', () => {
  const serverError = 'Something went wrong on the server. Please try again.';
  /** A 500 for every call to one entity, the echo for the others. */
  const poisoned = (id: string) => {
    const answer: Answer = (call) => (call.path.endsWith(id) ? status(500, serverError)(call) : echo(call));
    return scriptedServer(...Array.from({ length: 20 }, () => answer));
  };

  it('waits out its back-off on its own while another entity’s create is sent, and fails after MAX_ATTEMPTS answers', async () => {
    freezeTime();
    const seq = await enqueue(update(A, 1, { name: 'Poisoned' }));
    await enqueue(update(A, 1, { description: 'Behind it' }));
    await enqueue(create(B, { name: 'Fine' }));
    const { send, calls } = poisoned(A);
    const sentToA = () => calls.filter((call) => call.path.endsWith(A)).length;

    expect(await drain(send)).toEqual({ startedAt: Date.now(), sent: 1, stopped: null, retryAt: Date.now() + BACKOFF_MS[0] });
    expect(await record(B)).toMatchObject({ name: 'Fine', version: 1 });
    expect(sentToA()).toBe(1);

    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      // Not a moment before its wait is over.
      vi.setSystemTime(Date.now() + BACKOFF_MS[attempt - 1]! - 1);
      await drain(send);
      expect(sentToA()).toBe(attempt);
      expect(await db.outbox.get(seq!)).toMatchObject({ status: 'pending', attempts: attempt });
      vi.setSystemTime(Date.now() + 1);
      await drain(send);
      expect(sentToA()).toBe(attempt + 1);
    }

    const [poisonedEntry, behind] = await entries();
    expect(poisonedEntry).toMatchObject({ seq, status: 'failed', attempts: MAX_ATTEMPTS, error: { message: serverError, errors: [], status: 500 } });
    expect(behind).toMatchObject({ status: 'pending', body: { description: 'Behind it' } });
    // Failed, it waits for the person, however long.
    vi.setSystemTime(Date.now() + 24 * 60 * 60_000);
    expect(await drain(send)).toMatchObject({ sent: 0, retryAt: null });
    expect(sentToA()).toBe(MAX_ATTEMPTS);

    // Retried, it has all its tries again.
    await retry(seq!);
    const retried = await db.outbox.get(seq!);
    expect(retried).toMatchObject({ status: 'pending', attempts: 0 });
    expect(retried?.retryAt).toBeUndefined();
  });
});

/** Every call to one entity goes unanswered; the others are answered. */
function unanswered(id: string) {
  const answer: Answer = (call) => (call.path.endsWith(id) ? offline(call) : echo(call));
  return scriptedServer(...Array.from({ length: 40 }, () => answer));
}

describe('an answer that never came (no connection, or a page that is not our JSON: a proxy’s 502)', () => {
  it('is sent again at once under the same key, and the drain goes on', async () => {
    await enqueue(update(A, 1, { name: 'x' }));
    await enqueue(update(B, 1, { name: 'y' }));
    const { send, calls } = scriptedServer(offline);

    expect(await drain(send)).toMatchObject({ sent: 2, stopped: null, retryAt: null });

    expect(calls.map((call) => call.path)).toEqual([`/api/categories/${A}`, `/api/categories/${A}`, `/api/categories/${B}`]);
    expect(calls[1]!.headers['Idempotency-Key']).toBe(calls[0]!.headers['Idempotency-Key']);
    expect(await db.outbox.count()).toBe(0);
  });

  it('lost twice, backs off its entity alone, briefly at first and longer while it lasts, and never fails', async () => {
    freezeTime();
    const seq = await enqueue(update(A, 1, { name: 'x' }));
    await enqueue(update(A, 1, { description: 'behind it' }));
    await enqueue(update(B, 1, { name: 'y' }));
    const { send, calls } = unanswered(A);
    const sentToA = () => calls.filter((call) => call.path.endsWith(A)).length;

    expect(await drain(send)).toEqual({ startedAt: Date.now(), sent: 1, stopped: null, retryAt: Date.now() + LOST_BACKOFF_MS[0] });
    expect(sentToA()).toBe(2);
    expect(await record(B)).toMatchObject({ name: 'y', version: 2 });

    const waits = [...LOST_BACKOFF_MS, LOST_BACKOFF_MS.at(-1)!];
    for (const [index, wait] of waits.entries()) {
      // Not a moment before its wait is over.
      vi.setSystemTime(Date.now() + wait - 1);
      await drain(send);
      expect(sentToA()).toBe(2 * (index + 1));
      vi.setSystemTime(Date.now() + 1);
      const next = waits[index + 1] ?? LOST_BACKOFF_MS.at(-1)!;
      expect(await drain(send)).toMatchObject({ sent: 0, stopped: null, retryAt: Date.now() + next });
      expect(sentToA()).toBe(2 * (index + 2));
    }
    // No answer says nothing against the change: it waits for one, however long, and counts no attempt.
    expect(await db.outbox.get(seq!)).toMatchObject({ status: 'pending', attempts: 0 });
    expect((await entries()).map((entry) => entry.body)).toEqual([{ name: 'x' }, { description: 'behind it' }]);
  });

  it('an answer of the server, even a 503, ends the count of lost ones', async () => {
    freezeTime();
    await enqueue(update(A, 1, { name: 'x' }));
    await enqueue(update(B, 1, { name: 'y' }));
    await drain(unanswered(A).send);
    vi.setSystemTime(Date.now() + LOST_BACKOFF_MS[0]);
    await drain(unanswered(A).send);
    expect(await only()).toMatchObject({ entityId: A, lost: 2 });

    vi.setSystemTime(Date.now() + LOST_BACKOFF_MS[1]);
    // A 503 is an answer: the entity backs off for the server now, the count of lost ones starts again.
    await drain(scriptedServer(status(503)).send);
    const held = await only();
    expect(held).toMatchObject({ attempts: 1, retryAt: Date.now() + BACKOFF_MS[0] });
    expect(held.lost).toBeUndefined();
  });

  it(`stops as offline when ${OFFLINE_AFTER} entities in a row got no answer, and leaves them as they were`, async () => {
    freezeTime();
    const ids = [A, B, C, D];
    for (const id of ids) await enqueue(update(id, 1, { name: id }));
    const { send, calls } = scriptedServer(...Array.from({ length: 20 }, () => offline));

    expect(await drain(send)).toMatchObject({ sent: 0, stopped: 'offline', retryAt: null });

    expect(calls.map((call) => call.path)).toEqual(ids.slice(0, OFFLINE_AFTER).flatMap((id) => [`/api/categories/${id}`, `/api/categories/${id}`]));
    expect((await entries()).map((entry) => [entry.status, entry.attempts, entry.lost, entry.retryAt])).toEqual(ids.map(() => ['pending', 0, undefined, undefined]));
  });

  it('any answer between them starts the count again', async () => {
    const ids = [A, B, C, D];
    for (const id of ids) await enqueue(update(id, 1, { name: id }));
    // A and B lost, C answered, D lost: two in a row at most.
    const { send } = scriptedServer(offline, offline, offline, offline, echo, offline, offline);

    expect(await drain(send)).toMatchObject({ sent: 1, stopped: null });
    expect((await entries()).map((entry) => [entry.entityId, entry.lost])).toEqual([
      [A, 1],
      [B, 1],
      [D, 1],
    ]);
  });

  it('stops at once, sending nothing again, when the device knows it is offline', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await enqueue(update(A, 1, { name: 'x' }));
    const { send, calls } = scriptedServer(offline);

    expect(await drain(send)).toMatchObject({ sent: 0, stopped: 'offline' });
    expect(calls).toHaveLength(1);
    expect(await only()).toMatchObject({ status: 'pending', attempts: 0 });
  });
});

/** A subcategory's create, which needs its category's first. */
function subcategory(id: string, categoryId: string): NewEntry {
  const itemPath = `/api/subcategories/${id}`;
  const body = { name: 'Child', categoryId, _id: id };
  const dependsOn = [entityKey('categories', categoryId)];
  return { resource: 'subcategories', entityId: id, kind: 'create', method: 'POST', path: '/api/subcategories', itemPath, body, baseVersion: null, label, fallback: '', dependsOn };
}

const statuses = async () => (await entries()).map((entry) => [entry.entityId, entry.status]);
const pageIds = async (key: string) => (await db.cache.get(key))?.ids;
const position = async (id: string) => (await db.records.get(['subcategories', id]))?.row.position;

describe('an entry that depends on another entity’s create', () => {
  it('fails, saying why, when that create is discarded before it was sent: the server would only refuse it', async () => {
    const category = await enqueue(create(A));
    await enqueue(subcategory(B, A));
    await enqueue({ ...create(D), dependsOn: [entityKey('subcategories', B)] });

    await discard(category!);
    expect(await statuses()).toEqual([
      [B, 'failed'],
      [D, 'failed'],
    ]);
    expect((await entries())[0]!.error).toMatchObject({ reason: 'parentNotSaved', status: 424 });
    const { send, calls } = scriptedServer();
    await drain(send);
    expect(calls).toEqual([]);
  });

  it('is sent after that create, even when it was queued first', async () => {
    await enqueue(subcategory(C, A));
    await enqueue(create(A, { name: 'Parent' }));
    const { send, calls } = scriptedServer();

    expect(await drain(send)).toMatchObject({ sent: 2, stopped: null });
    expect(calls.map((call) => call.path)).toEqual(['/api/categories', '/api/subcategories']);
  });

  it('waits while that create backs off, and fails with it when the server refuses it, never sent', async () => {
    freezeTime();
    await enqueue(create(A, { name: 'Taken' }));
    await enqueue(subcategory(C, A));
    await enqueue(update(B, 1, { name: 'Unrelated' }));
    const { send, calls } = scriptedServer(status(503), echo, status(400, 'Some fields are not valid'));

    await drain(send);
    expect(calls.map((call) => call.path)).toEqual(['/api/categories', `/api/categories/${B}`]);
    expect(await statuses()).toEqual([
      [A, 'pending'],
      [C, 'pending'],
    ]);

    vi.setSystemTime(Date.now() + BACKOFF_MS[0]);
    await drain(send);

    expect(calls.map((call) => call.path)).toEqual(['/api/categories', `/api/categories/${B}`, '/api/categories']);
    const [parent, child] = await entries();
    expect(parent).toMatchObject({ status: 'failed', error: { message: 'Some fields are not valid', status: 400 } });
    expect(child).toMatchObject({
      status: 'failed',
      error: { message: 'Not sent: the item it depends on could not be saved.', errors: [], status: 424, reason: 'parentNotSaved' },
    });
  });

  it('queued after that create failed, fails at the next drain, never sent', async () => {
    await enqueue(create(A, { name: 'Taken' }));
    const { send, calls } = scriptedServer(status(400));
    await drain(send);

    await enqueue(subcategory(C, A));
    await drain(send);

    expect(calls).toHaveLength(1);
    expect(await statuses()).toEqual([
      [A, 'failed'],
      [C, 'failed'],
    ]);
  });

  it.each([
    ['retried', (seq: number) => retry(seq)],
    ['fixed', () => enqueue(update(A, 1, { name: 'Free' }))],
  ])('waits for that create again once it is %s, and so do the entries that waited for it', async (_case, fix) => {
    const seq = await enqueue(create(A, { name: 'Taken' }));
    await enqueue(subcategory(C, A));
    await enqueue({ ...create(D), dependsOn: [entityKey('subcategories', C)] });
    const { send, calls } = scriptedServer(status(400));
    await drain(send);
    expect((await entries()).map((entry) => entry.status)).toEqual(['failed', 'failed', 'failed']);

    await fix(seq!);
    expect((await entries()).map((entry) => [entry.status, entry.error])).toEqual([
      ['pending', undefined],
      ['pending', undefined],
      ['pending', undefined],
    ]);
    await drain(send);

    expect(calls.map((call) => json(call)?._id)).toEqual([A, A, C, D]);
    expect(await db.outbox.count()).toBe(0);
  });
});

/** The server's 409 to a reorder made from another order than it holds. */
const orderConflict =
  (current: string[]): Answer =>
  () =>
    new ApiError('Someone else changed this order in the meantime.', 409, { success: false, message: '…', data: { items: current } });

/** A change of one of a list's children (subcategories), sent where the server keeps them. */
const child = (entry: NewEntry): NewEntry => ({
  ...entry,
  resource: 'subcategories',
  path: entry.method === 'POST' ? '/api/subcategories' : `/api/subcategories/${entry.entityId}`,
  itemPath: `/api/subcategories/${entry.entityId}`,
});

/** One answer instead of the server's own, to the first call of a method. */
function once(method: string, answer: Answer) {
  let used = false;
  return (call: OutboxRequest) => (used || call.method !== method ? undefined : ((used = true), answer(call)));
}

describe('reorder', () => {
  const [S1, S2, S3, X] = ['1', '2', '3', '4'].map((n) => `0190d6b0-0000-7000-8000-00000000010${n}`) as [string, string, string, string];
  const path = `/api/categories/${A}/subcategories/order`;
  const inOrder = 'subcategories?categoryId=a';
  const byName = 'subcategories?sortBy=name';
  /** How the list machine asks for an ordered entry's children (initialListQuery). */
  const byPosition = 'subcategories?sortBy=position&sortOrder=asc';
  /** The order the server holds before anyone moves anything. */
  const served = [S1, S2, X, S3];

  function reorder(ids: string[], parentId = A, seen: readonly string[] = served) {
    return enqueueReorder({ resource: 'subcategories', parentId, ids, base: orderTag(seen), path, field: 'items', label: { item: 'subcategories', title: '' }, fallback: 'Failed to reorder' });
  }

  beforeEach(async () => {
    for (const id of [S1, S2, S3, X]) await db.records.put({ resource: 'subcategories', id, row: row(id, 1), fetchedAt: 1 });
    const pagination = { currentPage: 1, totalPages: 1, totalItems: 4, itemsPerPage: 10 };
    await db.cache.bulkPut([
      { key: inOrder, resource: 'subcategories', query: { categoryId: A }, ids: [S1, S2, X, S3], pagination, fetchedAt: 1 },
      { key: byName, resource: 'subcategories', query: { sortBy: 'name' }, ids: [S2, X, S3, S1], pagination, fetchedAt: 1 },
      { key: byPosition, resource: 'subcategories', query: { sortBy: 'position', sortOrder: 'asc' }, ids: [S1, S2, X, S3], pagination, fetchedAt: 1 },
    ]);
  });

  it('writes the new order into the cached children at once: their position, and the pages in their default order', async () => {
    await reorder([S3, S1, X, S2]);

    expect(await pageIds(inOrder)).toEqual([S3, S1, X, S2]);
    expect(await pageIds(byPosition)).toEqual([S3, S1, X, S2]);
    expect(await pageIds(byName)).toEqual([S2, X, S3, S1]);
    expect(await Promise.all([S3, S1, X, S2].map(position))).toEqual([0, 1, 2, 3]);
  });

  it('sends the order it was made from as If-Match; a newer order of the same parent replaces the unsent one and keeps its base', async () => {
    await reorder([S3, S1, X, S2]);
    // Made from what the list showed then: the first reorder's order, which the server never held.
    await reorder([S2, S3, X, S1], A, [S3, S1, X, S2]);
    await reorder([C, D], B, [D, C]);

    const [mine, other] = await entries();
    expect(other).toMatchObject({ entityId: `order:${B}`, baseOrder: orderTag([D, C]) });
    expect(mine).toMatchObject({ kind: 'reorder', resource: 'subcategories', entityId: `order:${A}`, status: 'pending', body: { items: [S2, S3, X, S1] }, baseOrder: orderTag(served) });
    expect(await pageIds(inOrder)).toEqual([S2, S3, X, S1]);

    const { send, calls } = scriptedServer(() => ({ success: true, data: { items: [S2, S3, X, S1] } }));
    await drain(send);

    expect(calls[0]).toMatchObject({ method: 'PUT', path, body: { items: [S2, S3, X, S1] } });
    expect(calls[0]!.headers['If-Match']).toBe(`"${orderTag(served)}"`);
    expect(calls[0]!.headers['Idempotency-Key']).toBe(mine!.idempotencyKey);
    expect(await db.outbox.count()).toBe(0);
    expect(await position(S2)).toBe(0);
  });

  it('a reorder made while the one before was on its way is sent based on that one, not on the order both replaced', async () => {
    await reorder([S3, S1, X, S2]);
    const calls: OutboxRequest[] = [];
    const send = async (call: OutboxRequest): Promise<Success<unknown>> => {
      calls.push(call);
      // The person moves again while the first is sent; the list shows the first one's order.
      if (calls.length === 1) await reorder([X, S3, S1, S2], A, [S3, S1, X, S2]);
      return { success: true, data: json(call) };
    };
    await drain(send);

    expect(calls.map((call) => [json(call)?.items, call.headers['If-Match']])).toEqual([
      [[S3, S1, X, S2], `"${orderTag(served)}"`],
      [[X, S3, S1, S2], `"${orderTag([S3, S1, X, S2])}"`],
    ]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('waits for the creates of the children it names', async () => {
    await reorder([C, S1]);
    await enqueue({ ...create(C), resource: 'subcategories', path: '/api/subcategories' });
    const { send, calls } = scriptedServer();

    await drain(send);
    expect(calls.map((call) => call.method)).toEqual(['POST', 'PUT']);
  });

  it('a 409 naming the server’s order is a conflict holding that order; one naming my own order is done', async () => {
    await reorder([S3, S1, X, S2]);
    const theirs = [S2, S1, X, S3];
    await drain(scriptedServer(orderConflict(theirs)).send);
    expect(await only()).toMatchObject({ status: 'conflict', currentOrder: theirs, error: { status: 409, message: 'Someone else changed this order in the meantime.' } });

    await db.outbox.clear();
    await reorder([S3, S1, X, S2]);
    // Sent before, its answer lost, its key expired: the server holds exactly this order.
    await drain(scriptedServer(orderConflict([S3, S1, X, S2])).send);
    expect(await db.outbox.count()).toBe(0);
  });

  it('keep mine: my order again, based on the server’s, with its new children last and its removed ones gone', async () => {
    await reorder([S3, S1, X, S2]);
    // Meantime someone removed X, added D, and moved S2 first.
    const theirs = [S2, D, S1, S3];
    await drain(scriptedServer(orderConflict(theirs)).send);
    const before = await only();

    await keepMine(before.seq!);

    const after = await only();
    expect(after).toMatchObject({ status: 'pending', body: { items: [S3, S1, S2, D] }, baseOrder: orderTag(theirs) });
    expect(after.idempotencyKey).not.toBe(before.idempotencyKey);
    expect([after.currentOrder, after.error]).toEqual([undefined, undefined]);
    expect(await pageIds(inOrder)).toEqual([S3, S1, X, S2]);

    const { send, calls } = scriptedServer(() => ({ success: true, data: { items: [S3, S1, S2, D] } }));
    await drain(send);
    expect(calls[0]!.headers['If-Match']).toBe(`"${orderTag(theirs)}"`);
    expect(await db.outbox.count()).toBe(0);
  });

  it('take theirs: my reorder goes, and the cache shows the server’s order', async () => {
    await reorder([S3, S1, X, S2]);
    await drain(scriptedServer(orderConflict([X, S3, S2, S1])).send);

    await takeTheirs((await only()).seq!);

    expect(await db.outbox.count()).toBe(0);
    expect(await pageIds(inOrder)).toEqual([X, S3, S2, S1]);
    expect(await Promise.all([X, S3, S2, S1].map(position))).toEqual([0, 1, 2, 3]);
  });

  /**
   * The server's side of the list, as crud/ keeps it: a new child last, a deleted one gone, and
   * a reorder taken only from the order it holds (else 409 with that order). `refuse` answers a
   * call in its place.
   */
  function listServer(children: readonly string[], refuse: (call: OutboxRequest) => Success<unknown> | Error | undefined = () => undefined) {
    const order = [...children];
    const calls: OutboxRequest[] = [];
    const send = async (call: OutboxRequest): Promise<Success<unknown>> => {
      calls.push(call);
      const refused = refuse(call);
      if (refused instanceof Error) throw refused;
      const id = call.method === 'POST' ? String(json(call)?._id) : call.path.split('/').at(-1)!;
      if (call.method === 'POST') order.push(id);
      else if (call.method === 'DELETE') order.splice(order.indexOf(id), 1);
      else if (call.path === path) {
        if (call.headers['If-Match'] !== `"${orderTag(order)}"`) throw orderConflict([...order])(call);
        order.splice(0, order.length, ...(json(call)!.items as string[]));
        return { success: true, data: { items: [...order] } };
      }
      return echo(call);
    };
    return { send, calls, order, methods: () => calls.map((call) => call.method) };
  }

  it('waits for the deletes of its children queued before it, also while one backs off, and is sent on the order the server then has', async () => {
    freezeTime();
    await enqueue(child(remove(X, 1)));
    // The list no longer showed X when the person moved S3 up.
    await reorder([S3, S1, S2], A, [S1, S2, S3]);
    const server = listServer(served, once('DELETE', status(503)));

    expect(await drain(server.send)).toMatchObject({ sent: 0, retryAt: Date.now() + BACKOFF_MS[0] });
    expect(server.methods()).toEqual(['DELETE']);

    vi.setSystemTime(Date.now() + BACKOFF_MS[0]);
    expect(await drain(server.send)).toMatchObject({ sent: 2, stopped: null });
    expect(server.methods()).toEqual(['DELETE', 'DELETE', 'PUT']);
    expect(server.order).toEqual([S3, S1, S2]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('goes before a child created after it, also while it backs off: the server holds the order it was made from', async () => {
    freezeTime();
    await reorder([S3, S1, X, S2]);
    await enqueue(child(create(C)));
    const server = listServer(served, once('PUT', status(503)));

    await drain(server.send);
    expect(server.methods()).toEqual(['PUT']);

    vi.setSystemTime(Date.now() + BACKOFF_MS[0]);
    expect(await drain(server.send)).toMatchObject({ sent: 2, stopped: null });
    expect(server.methods()).toEqual(['PUT', 'PUT', 'POST']);
    expect(server.order).toEqual([S3, S1, X, S2, C]);
  });

  it('made after a child was created, is queued behind the one before it, each on the order it was made from', async () => {
    await reorder([S3, S1, X, S2]);
    await enqueue(child(create(C)));
    // The list showed the first move, and the new child last.
    await reorder([C, S3, S1, X, S2], A, [S3, S1, X, S2, C]);
    const server = listServer(served);

    expect(await drain(server.send)).toMatchObject({ sent: 3, stopped: null });
    expect(server.methods()).toEqual(['PUT', 'POST', 'PUT']);
    expect(server.order).toEqual([C, S3, S1, X, S2]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('waits, not fails, while the create of a child queued before it is refused, and follows it once it is retried', async () => {
    const seq = await enqueue(child(create(C, { name: 'Taken' })));
    await reorder([C, S1, S2, X, S3], A, [...served, C]);
    const server = listServer(served, once('POST', status(400)));

    await drain(server.send);
    expect(await statuses()).toEqual([
      [C, 'failed'],
      [`order:${A}`, 'pending'],
    ]);

    await retry(seq!);
    expect(await drain(server.send)).toMatchObject({ sent: 2, stopped: null });
    expect(server.methods()).toEqual(['POST', 'POST', 'PUT']);
    expect(server.order).toEqual([C, S1, S2, X, S3]);
  });

  it('keep mine is sent on the order the server holds: a child deleted while the conflict is shown waits for it', async () => {
    await reorder([S3, S1, X, S2]);
    // Someone else moved S2 first.
    const server = listServer([S2, S1, X, S3]);
    await drain(server.send);
    const conflicted = await only();
    expect(conflicted.status).toBe('conflict');

    await enqueue(child(remove(S1, 1)));
    await drain(server.send);
    await keepMine(conflicted.seq!);

    expect(await drain(server.send)).toMatchObject({ sent: 2, stopped: null });
    expect(server.methods()).toEqual(['PUT', 'PUT', 'DELETE']);
    expect(server.order).toEqual([S3, X, S2]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('merges orders keeping mine where both know the children', () => {
    expect(mergeOrder([S3, S1, X, S2], [S1, S2, X, S3])).toEqual([S3, S1, X, S2]);
    expect(mergeOrder([S3, S1, X], [S1, D, S3, C])).toEqual([S3, S1, D, C]);
    expect(mergeOrder([], [S1])).toEqual([S1]);
  });
});
