import { createTestModel } from '@xstate/graph';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, type Actor, type EventObject, type SnapshotFrom } from 'xstate';
import { ApiError, ValidationError } from '../api/request';
import { isAuthenticated, readPendingUser, readResetTicket, readSession, savePendingUser, saveResetTicket, saveSession } from '../api/session';
import { authMachine, type AuthEvent, type AuthInput } from './auth.machine';
import { ADA } from '../api/user.test-support';

const TICKET = { email: 'ada@example.com', pin: '654321', tempToken: 'temp-1' };

const CALLS = ['login', 'verifyPin', 'requestReset', 'verifyResetPin', 'resetPassword', 'logout'] as const;
type Call = (typeof CALLS)[number];

const OUTPUTS: Record<Call, unknown> = {
  login: { emailOrUsername: 'ada', pinExpiresInSeconds: 600 },
  verifyPin: { token: 'tok-1', user: ADA },
  requestReset: undefined,
  verifyResetPin: TICKET.tempToken,
  resetPassword: undefined,
  logout: undefined,
};

// A refusal with the server's message, and a 400 naming a field.
const FAILURES = [
  new ApiError('The server says no.', 401),
  new ValidationError('Some fields are not valid', [{ path: 'body.password', message: 'This field is required' }], {}),
];

const EVENTS = [
  { type: 'credentials.submit', emailOrUsername: 'ada', password: 'secret-pw' },
  { type: 'pin.submit', pin: '123456' },
  { type: 'reset.request', email: TICKET.email },
  { type: 'reset.mailed', email: TICKET.email },
  { type: 'resetPin.submit', pin: TICKET.pin },
  { type: 'password.submit', newPassword: 'new-secret-pw' },
  ...CALLS.flatMap((id) => [
    { type: `xstate.done.actor.${id}`, output: OUTPUTS[id], actorId: id },
    ...FAILURES.map((error) => ({ type: `xstate.error.actor.${id}`, error, actorId: id })),
  ]),
] as AuthEvent[];

interface Start {
  name: string;
  input: AuthInput;
  /** What a reload found in storage. */
  arrange: () => void;
  signedIn: boolean;
}

const STARTS: Start[] = [
  { name: 'a fresh start', input: { pendingUser: null, reset: null }, arrange: () => {}, signedIn: false },
  { name: 'a stored session', input: { pendingUser: null, reset: null }, arrange: () => saveSession('tok-0', ADA), signedIn: true },
  { name: 'a mailed PIN', input: { pendingUser: 'ada', reset: null }, arrange: () => savePendingUser('ada'), signedIn: false },
  { name: 'a verified reset PIN', input: { pendingUser: null, reset: TICKET }, arrange: () => saveResetTicket(TICKET), signedIn: false },
];

type Implementations = Required<Parameters<typeof authMachine.provide>[0]>;

/** The real machine with fake requests that stay pending until the path settles them. */
function harness(start: Start) {
  start.arrange();
  const pending = new Map<Call, { input: unknown; resolve: (output: unknown) => void; reject: (error: unknown) => void }>();
  const fake = (id: Call) =>
    fromPromise<unknown, unknown>(({ input }) => new Promise((resolve, reject) => pending.set(id, { input, resolve, reject })));
  const actors = Object.fromEntries(CALLS.map((id) => [id, fake(id)])) as unknown as Implementations['actors'];
  const actor = createActor(authMachine.provide({ actors }), { input: start.input }).start();
  return { actor, pending };
}

type AuthActor = Actor<typeof authMachine>;
type AuthSnapshot = SnapshotFrom<typeof authMachine>;

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function settleCall(pending: ReturnType<typeof harness>['pending'], event: AuthEvent) {
  const [, outcome, , id] = event.type.split('.') as [string, 'done' | 'error', string, Call];
  const call = pending.get(id);
  if (!call) throw new Error(`no ${id} request is running`);
  if (outcome === 'done') call.resolve((event as { output: unknown }).output);
  else call.reject((event as { error: unknown }).error);
  return settle();
}

function expectInputOf(pending: ReturnType<typeof harness>['pending'], id: Call, input: unknown) {
  expect(pending.get(id)?.input).toEqual(input);
}

function expectState(actor: AuthActor, state: AuthSnapshot) {
  expect(actor.getSnapshot().value).toEqual(state.value);
  expect(actor.getSnapshot().context).toEqual(state.context);
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe.each(STARTS)('authMachine from $name', (start) => {
  const model = createTestModel(authMachine.provide({ guards: { hasSession: () => start.signedIn } }), {
    input: start.input,
    events: EVENTS,
  });

  it.each(model.getShortestPaths().map((path) => [path.description, path] as const))('%s', async (_name, path) => {
    const { actor, pending } = harness(start);
    let tokenAtLogout: string | null = null;

    const settleEvents = Object.fromEntries(
      EVENTS.filter((event) => event.type.startsWith('xstate.')).map((event) => [
        event.type,
        ({ event: stepEvent }: { event: EventObject }) => settleCall(pending, stepEvent as AuthEvent),
      ]),
    );
    const send = ({ event }: { event: EventObject }) => actor.send(event as AuthEvent);

    await path.test({
      events: {
        ...settleEvents,
        'credentials.submit': send,
        'pin.submit': send,
        'reset.request': send,
        'reset.mailed': send,
        'resetPin.submit': send,
        'password.submit': send,
        'flow.cancel': send,
        'session.logout': (step) => {
          tokenAtLogout = readSession().token;
          send(step);
        },
        // What AuthProvider sends when another tab signs in or out.
        'session.started': (step) => {
          saveSession('tok-other-tab', ADA);
          send(step);
        },
        'session.ended': (step) => {
          localStorage.clear();
          send(step);
        },
      },
      states: {
        idle: (state) => {
          expectState(actor, state);
          expect(isAuthenticated()).toBe(false);
          expect(readPendingUser()).toBeNull();
          expect(readResetTicket()).toBeNull();
        },
        submitting: (state) => {
          expectState(actor, state);
          expect(state.context.error).toBeNull();
          expectInputOf(pending, 'login', { emailOrUsername: 'ada', password: 'secret-pw' });
        },
        awaitingPin: (state) => {
          expectState(actor, state);
          expect(readPendingUser()).toEqual({ emailOrUsername: 'ada' });
          expect(isAuthenticated()).toBe(false);
        },
        verifying: (state) => {
          expectState(actor, state);
          expectInputOf(pending, 'verifyPin', { emailOrUsername: 'ada', pin: '123456' });
        },
        authenticated: (state) => {
          expectState(actor, state);
          expect(isAuthenticated()).toBe(true);
          expect(readSession().user?.id).toBe(ADA.id);
          expect(readPendingUser()).toBeNull();
        },
        loggingOut: (state) => {
          expectState(actor, state);
          // Spec §4: gone at once, whatever the server answers; the call still carries the old token.
          expect(readSession()).toEqual({ token: null, user: null });
          expectInputOf(pending, 'logout', { token: tokenAtLogout });
        },
        resetRequesting: (state) => {
          expectState(actor, state);
          expectInputOf(pending, 'requestReset', { email: TICKET.email });
        },
        resetAwaitingPin: (state) => expectState(actor, state),
        resetVerifying: (state) => {
          expectState(actor, state);
          expectInputOf(pending, 'verifyResetPin', { email: TICKET.email, pin: TICKET.pin });
        },
        resetAwaitingPassword: (state) => {
          expectState(actor, state);
          // Survives a reload of /reset-password.
          expect(readResetTicket()).toEqual(TICKET);
        },
        resetSubmitting: (state) => {
          expectState(actor, state);
          expectInputOf(pending, 'resetPassword', { tempToken: TICKET.tempToken, pin: TICKET.pin, newPassword: 'new-secret-pw' });
        },
        resetDone: (state) => {
          expectState(actor, state);
          expect(readResetTicket()).toBeNull();
        },
      },
    });
    actor.stop();
  });
});
