import { i18n } from '@lingui/core';
import { createTestModel } from '@xstate/graph';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { ApiError } from '../api/request';
import { activateLanguage } from '../api/catalogs';
import { readSession, saveSession } from '../api/session';
import { languageMachine, type LanguageEvent } from './language.machine';
import type { ToastKind } from './toast.machine';
import { ADA } from '../api/user.test-support';

const USER = ADA;
const SERVER_LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
] as const;
const RELOAD_MS = 500;

// Loading a catalog is real file IO that would finish during a later test and switch its language.
vi.mock('../api/catalogs', () => ({ activateLanguage: vi.fn(async () => {}) }));

const EVENTS = [
  { type: 'language.select', code: 'de' },
  { type: 'language.select', code: 'en' },
  { type: 'xstate.done.actor.loadLanguages', output: SERVER_LANGUAGES, actorId: 'loadLanguages' },
  { type: 'xstate.error.actor.loadLanguages', error: new ApiError('Boom', 500), actorId: 'loadLanguages' },
  // No answer at all: offline.
  { type: 'xstate.error.actor.loadLanguages', error: new ApiError('Network error or server unavailable', 0), actorId: 'loadLanguages' },
  { type: 'xstate.done.actor.updateLanguage', output: { ...USER, language: 'de' }, actorId: 'updateLanguage' },
  { type: 'xstate.error.actor.updateLanguage', error: new ApiError('The server says no.', 500), actorId: 'updateLanguage' },
  // Not an API error: a bug or an unreadable answer gets the fixed message.
  { type: 'xstate.error.actor.updateLanguage', error: new TypeError('boom'), actorId: 'updateLanguage' },
] as LanguageEvent[];

type Actors = Required<Parameters<typeof languageMachine.provide>[0]>['actors'];

// Path generation resolves the toasts' parameters, which are translated messages.
i18n.loadAndActivate({ locale: 'en', messages: {} });
const model = createTestModel(languageMachine, { input: { current: 'en' }, events: EVENTS });

beforeEach(() => {
  vi.useFakeTimers();
  vi.mocked(activateLanguage).mockClear();
  saveSession('tok-1', USER);
});

afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

describe('languageMachine', () => {
  it.each(model.getShortestPaths().map((path) => [path.description, path] as const))('%s', async (_name, path) => {
    const pending = new Map<string, { input: unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
    const fake = (id: string) =>
      fromPromise<unknown, unknown>(({ input }) => new Promise((resolve, reject) => pending.set(id, { input, resolve, reject })));
    const notified: { kind: ToastKind; message: string }[] = [];
    const reload = vi.fn();
    const actor = createActor(
      languageMachine.provide({
        actors: { loadLanguages: fake('loadLanguages'), updateLanguage: fake('updateLanguage') } as unknown as Actors,
        actions: { notify: (_, toast) => notified.push(toast), reload },
      }),
      { input: { current: 'en' } },
    ).start();
    const send = ({ event }: { event: EventObject }) => actor.send(event as LanguageEvent);
    const expectState = (state: SnapshotFrom<typeof languageMachine>) => {
      expect(actor.getSnapshot().value).toEqual(state.value);
      expect(actor.getSnapshot().context).toEqual(state.context);
    };
    const settle = async (step: { event: EventObject }) => {
      const event = step.event as LanguageEvent;
      const [, outcome, , id = ''] = event.type.split('.');
      const call = pending.get(id);
      if ('output' in event) call?.resolve(event.output);
      else if ('error' in event && outcome === 'error') call?.reject(event.error);
      await vi.advanceTimersByTimeAsync(0);
    };

    await path.test({
      events: {
        'menu.toggle': send,
        'menu.close': send,
        'language.select': send,
        'xstate.done.actor.loadLanguages': settle,
        'xstate.error.actor.loadLanguages': async (step) => {
          await settle(step);
          // Spec §8's toast is for a server that failed; offline is no failure (issue 18).
          const { error } = step.event as Extract<LanguageEvent, { error: unknown }>;
          expect(notified).toEqual((error as ApiError).status === 0 ? [] : [{ kind: 'error', message: 'Failed to load languages' }]);
          // Spec §3: English and German when the server's list is missing.
          expect(actor.getSnapshot().context.languages).toEqual([
            { code: 'en', name: 'English' },
            { code: 'de', name: 'Deutsch' },
          ]);
        },
        'xstate.done.actor.updateLanguage': async (step) => {
          await settle(step);
          // Spec §4, in order: profile saved, stored user updated, interface switched, menu closed, toast.
          expect(readSession().user?.language).toBe('de');
          expect(localStorage.getItem('language')).toBe('de');
          expect(activateLanguage).toHaveBeenLastCalledWith('de');
          expect(notified.at(-1)).toEqual({ kind: 'success', message: 'Language updated successfully!' });
        },
        'xstate.error.actor.updateLanguage': async (step) => {
          await settle(step);
          const { error } = step.event as Extract<LanguageEvent, { error: unknown }>;
          const message = error instanceof ApiError ? error.message : 'Failed to update language';
          expect(notified.at(-1)).toEqual({ kind: 'error', message });
          expect(readSession().user?.language).toBe('en');
        },
        'language.reload': async () => {
          await vi.advanceTimersByTimeAsync(RELOAD_MS - 1);
          expect(reload).not.toHaveBeenCalled();
          await vi.advanceTimersByTimeAsync(1);
        },
      },
      states: {
        loading: (state) => {
          expectState(state);
          expect(pending.get('loadLanguages')?.input).toBe('en');
        },
        ready: expectState,
        changing: (state) => {
          expectState(state);
          expect(pending.get('updateLanguage')?.input).toBe(state.context.choice);
        },
        reloading: (state) => {
          expectState(state);
          expect(reload).not.toHaveBeenCalled();
        },
        reloaded: (state) => {
          expectState(state);
          expect(reload).toHaveBeenCalledOnce();
        },
      },
    });
    actor.stop();
  });
});
