import { useActorRef, useSelector } from '@xstate/react';
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { waitFor, type ActorRefFrom } from 'xstate';
import { authMachine, type AuthStatus } from './auth.machine';
import { isAuthenticated, readPendingUser, readResetTicket, subscribeSession } from '../api/session';

type AuthActor = ActorRefFrom<typeof authMachine>;

const AuthContext = createContext<AuthActor | null>(null);

/** Holds the app's one authMachine actor and keeps it in step with the stored session. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const actor = useActorRef(authMachine, {
    input: { pendingUser: readPendingUser()?.emailOrUsername ?? null, reset: readResetTicket() },
  });

  // Another tab signing in or out, or a rejected token (request.ts), changes the session under us.
  useEffect(() => subscribeSession(() => actor.send({ type: isAuthenticated() ? 'session.started' : 'session.ended' })), [actor]);

  return <AuthContext value={actor}>{children}</AuthContext>;
}

function useAuthActor(): AuthActor {
  const actor = useContext(AuthContext);
  if (!actor) throw new Error('useAuth needs an AuthProvider around it');
  return actor;
}

export interface Auth {
  status: AuthStatus;
  /** The message to show, in the interface language; cleared on the next submit. */
  error: string | null;
  /** From a 400, by field name. */
  fieldErrors: Record<string, string>;
  resetEmail: string | null;
  /** Success: the PIN is mailed, pendingUser stored, status awaitingPin. */
  login(emailOrUsername: string, password: string): void;
  /** Success: the session is stored, status authenticated. */
  verifyPin(pin: string): void;
  requestReset(email: string): void;
  /** The PIN came by mail unasked (an invitation): its step, for this address. */
  resumeReset(email: string): void;
  /** Success: status resetAwaitingPassword; the verified PIN survives a reload (sessionStorage). */
  verifyResetPin(pin: string): void;
  resetPassword(newPassword: string): void;
  /** The session is cleared at once, whatever the server answers; resolves once it has answered. */
  logout(): Promise<void>;
  /** Back to the start, forgetting a pending sign-in or reset. */
  cancel(): void;
}

export function useAuth(): Auth {
  const actor = useAuthActor();
  const status = useSelector(actor, (snapshot) => snapshot.value as AuthStatus);
  const error = useSelector(actor, (snapshot) => snapshot.context.error);
  const fieldErrors = useSelector(actor, (snapshot) => snapshot.context.fieldErrors);
  const resetEmail = useSelector(actor, (snapshot) => snapshot.context.resetEmail);

  const commands = useMemo(
    () => ({
      login: (emailOrUsername: string, password: string) => actor.send({ type: 'credentials.submit', emailOrUsername, password }),
      verifyPin: (pin: string) => actor.send({ type: 'pin.submit', pin }),
      requestReset: (email: string) => actor.send({ type: 'reset.request', email }),
      resumeReset: (email: string) => actor.send({ type: 'reset.mailed', email }),
      verifyResetPin: (pin: string) => actor.send({ type: 'resetPin.submit', pin }),
      resetPassword: (newPassword: string) => actor.send({ type: 'password.submit', newPassword }),
      logout: async () => {
        actor.send({ type: 'session.logout' });
        await waitFor(actor, (snapshot) => !snapshot.matches('loggingOut'));
      },
      cancel: () => actor.send({ type: 'flow.cancel' }),
    }),
    [actor],
  );

  return { status, error, fieldErrors, resetEmail, ...commands };
}
