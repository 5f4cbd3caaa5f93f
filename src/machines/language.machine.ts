import { i18n } from '@lingui/core';
import { assign, fromPromise, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import { fetchSwitcherLanguages } from '../api/languages';
import { updateProfile } from '../api/profile';
import { ApiError } from '../api/request';
import { storeLanguage } from '../api/storage';
import type { SessionUser } from '../api/user';
import { toast } from './feedback';
import { activateLanguage } from '../api/catalogs';
import { updateStoredUser } from '../api/session';
import type { SwitcherLanguage } from '../contract/auth';
import type { InterfaceLanguage } from '../contract/languages';
import { messages } from '../contract/messages';
import type { ToastKind } from './toast.machine';

export interface LanguageContext {
  /** The interface language; the switcher's button shows it. */
  current: InterfaceLanguage;
  languages: SwitcherLanguage[];
  /** The language being saved. */
  choice: InterfaceLanguage | null;
}

export type LanguageEvent =
  | { type: 'menu.toggle' }
  | { type: 'menu.close' }
  | { type: 'language.select'; code: InterfaceLanguage }
  /** Raised by the machine itself 500 ms after a change was saved. */
  | { type: 'language.reload' }
  | DoneActorEvent<SwitcherLanguage[], 'loadLanguages'>
  | ErrorActorEvent<unknown, 'loadLanguages'>
  | DoneActorEvent<SessionUser, 'updateLanguage'>
  | ErrorActorEvent<unknown, 'updateLanguage'>;

/**
 * Spec §3: without the server's list, the switcher still offers English and German, each under its
 * own name as the server's list names them, so a reader of either finds their language.
 */
const FALLBACK_LANGUAGES: SwitcherLanguage[] = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
];

const language = setup({
  types: {} as { context: LanguageContext; events: LanguageEvent; input: { current: InterfaceLanguage } },
  actors: {
    loadLanguages: fromPromise<SwitcherLanguage[], InterfaceLanguage>(({ input, signal }) => fetchSwitcherLanguages(input, signal)),
    updateLanguage: fromPromise<SessionUser, InterfaceLanguage>(({ input }) =>
      updateProfile({ language: input }, messages.languageUpdateFailed),
    ),
  },
  delays: { reloadAfter: 500 },
  guards: {
    isCurrent: ({ context, event }) => event.type === 'language.select' && event.code === context.current,
    unanswered: ({ event }) => event.type === 'xstate.error.actor.loadLanguages' && event.error instanceof ApiError && event.error.status === 0,
  },
  actions: {
    notify: (_, { kind, message }: { kind: ToastKind; message: string }) => toast[kind](message),
    storeUser: (_, user: SessionUser) => updateStoredUser(user),
    applyLanguage: (_, code: InterfaceLanguage) => {
      storeLanguage(code);
      void activateLanguage(code);
    },
    reload: () => window.location.reload(),
  },
});

/**
 * The header's language switcher (spec §4, §5, §8): loads the offered languages, and saves a choice
 * to the profile, then stores it, switches the interface, closes the menu, confirms, and reloads after
 * 500 ms. Choices made while one is being saved are ignored.
 */
export const languageMachine = language.createMachine({
  id: 'language',
  context: ({ input }) => ({ current: input.current, languages: [], choice: null }),
  initial: 'loading',
  states: {
    loading: {
      entry: language.spawnChild('loadLanguages', { id: 'loadLanguages', input: ({ context }) => context.current }),
      exit: language.stopChild('loadLanguages'),
      on: {
        'xstate.done.actor.loadLanguages': { target: 'ready', actions: assign({ languages: ({ event }) => event.output }) },
        'xstate.error.actor.loadLanguages': [
          // Offline (no answer at all) the fallback is what there is, and no failure: only a server's refusal is one (spec §8).
          { guard: 'unanswered', target: 'ready', actions: assign({ languages: FALLBACK_LANGUAGES }) },
          {
            target: 'ready',
            actions: [
              assign({ languages: FALLBACK_LANGUAGES }),
              { type: 'notify', params: () => ({ kind: 'error', message: i18n._(messages.languagesLoadFailed) }) },
            ],
          },
        ],
      },
    },
    ready: {
      initial: 'closed',
      states: {
        closed: {
          on: { 'menu.toggle': 'open' },
        },
        open: {
          on: {
            'menu.toggle': 'closed',
            'menu.close': 'closed',
            'language.select': [
              { guard: 'isCurrent', target: 'closed' },
              { target: '#language.changing', actions: assign({ choice: ({ event }) => event.code }) },
            ],
          },
        },
      },
    },
    changing: {
      entry: language.spawnChild('updateLanguage', { id: 'updateLanguage', input: ({ context }) => context.choice ?? context.current }),
      exit: language.stopChild('updateLanguage'),
      on: {
        'xstate.done.actor.updateLanguage': {
          target: 'reloading',
          actions: [
            { type: 'storeUser', params: ({ event }) => event.output },
            { type: 'applyLanguage', params: ({ event }) => event.output.language },
            assign({ current: ({ event }) => event.output.language, choice: null }),
            { type: 'notify', params: () => ({ kind: 'success', message: i18n._(messages.languageUpdated) }) },
          ],
        },
        'xstate.error.actor.updateLanguage': {
          target: 'ready.open',
          actions: [
            assign({ choice: null }),
            {
              type: 'notify',
              params: ({ event }) => ({
                kind: 'error',
                message: event.error instanceof ApiError ? event.error.message : i18n._(messages.languageUpdateFailed),
              }),
            },
          ],
        },
      },
    },
    reloading: {
      entry: language.raise({ type: 'language.reload' }, { delay: 'reloadAfter' }),
      on: { 'language.reload': 'reloaded' },
    },
    reloaded: {
      entry: 'reload',
    },
  },
});
