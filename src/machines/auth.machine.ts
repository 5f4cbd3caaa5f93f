import { i18n, type MessageDescriptor } from '@lingui/core';
import { assign, fromPromise, setup, type DoneActorEvent, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import * as api from '../api/auth';
import type { LoginResult } from '../api/auth';
import { ApiError, ValidationError } from '../api/request';
import { storeLanguage } from '../api/storage';
import type { SessionUser } from '../api/user';
import { activateLanguage } from '../api/catalogs';
import {
  clearPendingUser,
  clearResetTicket,
  clearSession,
  isAuthenticated,
  readSession,
  savePendingUser,
  saveResetTicket,
  saveSession,
  type ResetTicket,
} from '../api/session';
import { messages } from '../contract/messages';

export interface AuthContext {
  /** The account a sign-in PIN was mailed for. */
  emailOrUsername: string | null;
  resetEmail: string | null;
  resetPin: string | null;
  tempToken: string | null;
  /** The message to show, already in the interface language. */
  error: string | null;
  fieldErrors: Record<string, string>;
}

export interface AuthInput {
  /** Where a reload left the flows: a mailed sign-in PIN, a verified reset PIN. */
  pendingUser: string | null;
  reset: ResetTicket | null;
}

type SignedIn = { token: string; user: SessionUser };

export type AuthEvent =
  | { type: 'credentials.submit'; emailOrUsername: string; password: string }
  | { type: 'pin.submit'; pin: string }
  | { type: 'reset.request'; email: string }
  /** A mail with a reset PIN arrived without asking here (an invitation, a reset an admin asked for): straight to the PIN. */
  | { type: 'reset.mailed'; email: string }
  | { type: 'resetPin.submit'; pin: string }
  | { type: 'password.submit'; newPassword: string }
  | { type: 'flow.cancel' }
  | { type: 'session.logout' }
  /** The stored session appeared or vanished outside this machine (another tab, a rejected token). */
  | { type: 'session.started' }
  | { type: 'session.ended' }
  | DoneActorEvent<LoginResult, 'login'>
  | ErrorActorEvent<unknown, 'login'>
  | DoneActorEvent<SignedIn, 'verifyPin'>
  | ErrorActorEvent<unknown, 'verifyPin'>
  | DoneActorEvent<void, 'requestReset'>
  | ErrorActorEvent<unknown, 'requestReset'>
  | DoneActorEvent<string, 'verifyResetPin'>
  | ErrorActorEvent<unknown, 'verifyResetPin'>
  | DoneActorEvent<void, 'resetPassword'>
  | ErrorActorEvent<unknown, 'resetPassword'>
  | DoneActorEvent<void, 'logout'>
  | ErrorActorEvent<unknown, 'logout'>;

type EventOf<T extends AuthEvent['type']> = { event: Extract<AuthEvent, { type: T }> };

const NO_ERRORS = { error: null, fieldErrors: {} };
const NO_FLOW = { emailOrUsername: null, resetEmail: null, resetPin: null, tempToken: null };
const BLANK: AuthContext = { ...NO_FLOW, ...NO_ERRORS };

/** Field errors arrive as paths like `body.password`; forms know their fields by name. */
function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ValidationError)) return {};
  return Object.fromEntries(error.errors.map(({ path, message }) => [path.replace(/^body\./, ''), message]));
}

const auth = setup({
  types: {} as { context: AuthContext; events: AuthEvent; input: AuthInput },
  actors: {
    login: fromPromise<LoginResult, { emailOrUsername: string; password: string }>(({ input, signal }) => api.login(input, signal)),
    verifyPin: fromPromise<SignedIn, { emailOrUsername: string; pin: string }>(({ input, signal }) => api.verifyPin(input, signal)),
    requestReset: fromPromise<void, { email: string }>(({ input, signal }) => api.requestPasswordReset(input, signal)),
    verifyResetPin: fromPromise<string, { email: string; pin: string }>(({ input, signal }) => api.verifyResetPin(input, signal)),
    resetPassword: fromPromise<void, { tempToken: string; pin: string; newPassword: string }>(({ input, signal }) =>
      api.resetPassword(input, signal),
    ),
    // No signal: the server should end the session even when the user moves on before it answers.
    logout: fromPromise<void, { token: string | null }>(({ input }) => api.logout(input.token)),
  },
  guards: {
    hasSession: () => isAuthenticated(),
    hasResetTicket: ({ context }) => context.tempToken !== null,
    hasPendingUser: ({ context }) => context.emailOrUsername !== null,
  },
  actions: {
    clearErrors: assign(NO_ERRORS),
    blank: assign(BLANK),
    beginSignIn: assign((_, { emailOrUsername }: { emailOrUsername: string }) => ({ ...BLANK, emailOrUsername })),
    beginReset: assign((_, { email }: { email: string }) => ({ ...BLANK, resetEmail: email })),
    fail: assign((_, { error, fallback }: { error: unknown; fallback: MessageDescriptor }) => ({
      error: error instanceof ApiError ? error.message : i18n._(fallback),
      fieldErrors: fieldErrorsOf(error),
    })),
    storePendingUser: (_, { emailOrUsername }: { emailOrUsername: string }) => savePendingUser(emailOrUsername),
    storeSession: (_, { token, user }: SignedIn) => saveSession(token, user),
    // The profile's language is the user's choice; a new device should honour it at once.
    adoptLanguage: (_, { user }: SignedIn) => {
      storeLanguage(user.language);
      if (i18n.locale !== user.language) void activateLanguage(user.language);
    },
    storeResetTicket: (_, ticket: ResetTicket) => saveResetTicket(ticket),
    forgetFlows: () => {
      clearPendingUser();
      clearResetTicket();
    },
    forgetSession: () => clearSession(),
  },
});

/** Where the user may start over: on the login or forgot-password page, or back on one of them. */
const { on: startOver } = auth.createStateConfig({
  on: {
    'credentials.submit': {
      target: '#auth.submitting',
      actions: [
        'forgetFlows',
        { type: 'beginSignIn', params: ({ event }: EventOf<'credentials.submit'>) => ({ emailOrUsername: event.emailOrUsername }) },
      ],
    },
    'reset.request': {
      target: '#auth.resetRequesting',
      actions: ['forgetFlows', { type: 'beginReset', params: ({ event }: EventOf<'reset.request'>) => ({ email: event.email }) }],
    },
    'reset.mailed': {
      target: '#auth.resetAwaitingPin',
      actions: ['forgetFlows', { type: 'beginReset', params: ({ event }: EventOf<'reset.mailed'>) => ({ email: event.email }) }],
    },
    'flow.cancel': { target: '#auth.idle', actions: 'clearErrors' },
  },
});

/**
 * Sign-in with password and mailed PIN, the password reset, and logout (spec §4). Requests run as
 * spawned children stopped on exit rather than `invoke`: @xstate/graph's createTestModel refuses
 * machines that invoke, and the model tests feed `xstate.done.actor.*` / `xstate.error.actor.*` instead.
 */
export const authMachine = auth.createMachine({
  id: 'auth',
  context: ({ input }) => ({
    ...BLANK,
    emailOrUsername: input.pendingUser,
    resetEmail: input.reset?.email ?? null,
    resetPin: input.reset?.pin ?? null,
    tempToken: input.reset?.tempToken ?? null,
  }),
  initial: 'restoring',
  on: {
    'session.logout': '.loggingOut',
  },
  states: {
    restoring: {
      always: [
        { guard: 'hasSession', target: 'authenticated' },
        { guard: 'hasResetTicket', target: 'resetAwaitingPassword' },
        { guard: 'hasPendingUser', target: 'awaitingPin' },
        { target: 'idle' },
      ],
    },
    idle: {
      // Keeps the error of the attempt that led here.
      entry: ['forgetFlows', assign(NO_FLOW)],
      on: { ...startOver, 'session.started': 'authenticated' },
    },
    submitting: {
      entry: auth.spawnChild('login', {
        id: 'login',
        input: ({ context, event }) => ({
          emailOrUsername: context.emailOrUsername ?? '',
          password: event.type === 'credentials.submit' ? event.password : '',
        }),
      }),
      exit: auth.stopChild('login'),
      on: {
        'xstate.done.actor.login': {
          target: 'awaitingPin',
          actions: [
            assign({ emailOrUsername: ({ event }) => event.output.emailOrUsername }),
            { type: 'storePendingUser', params: ({ event }) => ({ emailOrUsername: event.output.emailOrUsername }) },
          ],
        },
        'xstate.error.actor.login': {
          target: 'idle',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error, fallback: messages.loginFailed }) },
        },
        'flow.cancel': { target: 'idle', actions: 'clearErrors' },
      },
    },
    awaitingPin: {
      on: {
        ...startOver,
        'pin.submit': { target: 'verifying', actions: 'clearErrors' },
        'session.started': 'authenticated',
      },
    },
    verifying: {
      entry: auth.spawnChild('verifyPin', {
        id: 'verifyPin',
        input: ({ context, event }) => ({
          emailOrUsername: context.emailOrUsername ?? '',
          pin: event.type === 'pin.submit' ? event.pin : '',
        }),
      }),
      exit: auth.stopChild('verifyPin'),
      on: {
        'xstate.done.actor.verifyPin': {
          target: 'authenticated',
          actions: [
            { type: 'storeSession', params: ({ event }) => event.output },
            { type: 'adoptLanguage', params: ({ event }) => event.output },
          ],
        },
        'xstate.error.actor.verifyPin': {
          target: 'awaitingPin',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error, fallback: messages.pinVerificationFailed }) },
        },
        'flow.cancel': { target: 'idle', actions: 'clearErrors' },
      },
    },
    authenticated: {
      entry: ['forgetFlows', 'blank'],
      on: { 'session.ended': 'idle' },
    },
    loggingOut: {
      // The input is resolved before forgetSession runs, so the call still carries the token.
      entry: [
        auth.spawnChild('logout', { id: 'logout', input: () => ({ token: readSession().token }) }),
        'forgetSession',
        'forgetFlows',
        'blank',
      ],
      exit: auth.stopChild('logout'),
      on: {
        ...startOver,
        'xstate.done.actor.logout': 'idle',
        'xstate.error.actor.logout': 'idle',
      },
    },
    resetRequesting: {
      entry: auth.spawnChild('requestReset', { id: 'requestReset', input: ({ context }) => ({ email: context.resetEmail ?? '' }) }),
      exit: auth.stopChild('requestReset'),
      on: {
        'xstate.done.actor.requestReset': 'resetAwaitingPin',
        'xstate.error.actor.requestReset': {
          target: 'idle',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error, fallback: messages.resetRequestFailed }) },
        },
        'flow.cancel': { target: 'idle', actions: 'clearErrors' },
      },
    },
    resetAwaitingPin: {
      on: {
        ...startOver,
        'resetPin.submit': { target: 'resetVerifying', actions: ['clearErrors', assign({ resetPin: ({ event }) => event.pin })] },
      },
    },
    resetVerifying: {
      entry: auth.spawnChild('verifyResetPin', {
        id: 'verifyResetPin',
        input: ({ context }) => ({ email: context.resetEmail ?? '', pin: context.resetPin ?? '' }),
      }),
      exit: auth.stopChild('verifyResetPin'),
      on: {
        'xstate.done.actor.verifyResetPin': {
          target: 'resetAwaitingPassword',
          actions: [
            assign({ tempToken: ({ event }) => event.output }),
            {
              type: 'storeResetTicket',
              params: ({ context, event }) => ({ email: context.resetEmail ?? '', pin: context.resetPin ?? '', tempToken: event.output }),
            },
          ],
        },
        'xstate.error.actor.verifyResetPin': {
          target: 'resetAwaitingPin',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error, fallback: messages.pinVerificationFailed }) },
        },
        'flow.cancel': { target: 'idle', actions: 'clearErrors' },
      },
    },
    resetAwaitingPassword: {
      on: {
        ...startOver,
        'password.submit': { target: 'resetSubmitting', actions: 'clearErrors' },
      },
    },
    resetSubmitting: {
      entry: auth.spawnChild('resetPassword', {
        id: 'resetPassword',
        input: ({ context, event }) => ({
          tempToken: context.tempToken ?? '',
          pin: context.resetPin ?? '',
          newPassword: event.type === 'password.submit' ? event.newPassword : '',
        }),
      }),
      exit: auth.stopChild('resetPassword'),
      on: {
        'xstate.done.actor.resetPassword': {
          target: 'resetDone',
          actions: ['forgetFlows', assign({ resetPin: null, tempToken: null })],
        },
        'xstate.error.actor.resetPassword': {
          target: 'resetAwaitingPassword',
          actions: { type: 'fail', params: ({ event }) => ({ error: event.error, fallback: messages.passwordResetFailed }) },
        },
        'flow.cancel': { target: 'idle', actions: 'clearErrors' },
      },
    },
    resetDone: {
      on: startOver,
    },
  },
});

/** The machine's states but the transient first one: what useAuth reports. */
export type AuthStatus = Exclude<SnapshotFrom<typeof authMachine>['value'], 'restoring'>;
