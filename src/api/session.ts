import { useMemo, useSyncExternalStore } from 'react';
import { forgetSnapshots } from './snapshot';
import { readStored, TOKEN_KEY } from './storage';
import { SessionUserSchema, type SessionUser } from './user';
import { isAdmin } from '../contract/permissions';

export type { SessionUser } from './user';

/** Dispatched on window after every change to the stored session, so the header and guards re-read it. */
export const AUTH_CHANGE_EVENT = 'auth-change';

// Spec §9 / §2 keys, shared with the seed's clients.
const USER_KEY = 'auth_user';
const PENDING_USER_KEY = 'pendingUser';
// Per tab: a verified reset PIN must survive a reload of /reset-password, not outlive the tab.
const RESET_KEY = 'resetToken';

export interface Session {
  token: string | null;
  user: SessionUser | null;
}

/** A password reset whose PIN was verified: the server wants the token and the PIN again with the new password. */
export interface ResetTicket {
  email: string;
  pin: string;
  tempToken: string;
}

function announce(): void {
  window.dispatchEvent(new Event(AUTH_CHANGE_EVENT));
}

function parse(json: string | null): unknown {
  if (json === null) return null;
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

// useSyncExternalStore needs the same object back while nothing changed.
let cached: { token: string | null; userJson: string | null; session: Session } | null = null;

export function readSession(): Session {
  const token = readStored(TOKEN_KEY);
  const userJson = readStored(USER_KEY);
  if (cached?.token !== token || cached.userJson !== userJson) {
    // A user stored by another version of the app may lack fields: treat it as signed out.
    const user = SessionUserSchema.safeParse(parse(userJson));
    cached = { token, userJson, session: { token, user: user.success ? user.data : null } };
  }
  return cached.session;
}

function authenticated({ token, user }: Session): boolean {
  return Boolean(token) && user !== null && user.verified === true;
}

/** Spec §2: a token, a user and user.verified === true. */
export function isAuthenticated(): boolean {
  return authenticated(readSession());
}

/** What the device's data does when a session starts or ends: db/device-session.ts, a layer above, sets it at boot. */
export interface SessionFollower {
  started(userId: string): void;
  /** `keepUnsentOf`: the user whose unsent changes stay (a session the server rejected). */
  ended(keepUnsentOf: string | undefined): void;
}

let follower: SessionFollower | null = null;

export function followSession(next: SessionFollower): void {
  follower = next;
}

export function saveSession(token: string, user: SessionUser): void {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  localStorage.removeItem(PENDING_USER_KEY);
  // The service worker gets the token from db/sync.ts, which shares it before every replay it asks for.
  follower?.started(user.id);
  announce();
}

export function updateStoredUser(user: SessionUser): void {
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  announce();
}

/**
 * Signs out on this device: the token, the user and everything Dexie holds (cache, records, the
 * outbox, the worker's copy of the token) go; Dexie is emptied in the background, before any
 * later write to it (its transactions run in the order they were started).
 * `{ rejected: true }`: the server ended the session (expired, signed out elsewhere); the user's
 * unsent changes stay for their next sign-in, since nothing a user typed may be lost.
 */
export function clearSession({ rejected = false } = {}): void {
  const userId = rejected ? readSession().user?.id : undefined;
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
  localStorage.removeItem(PENDING_USER_KEY);
  forgetSnapshots();
  announce();
  follower?.ended(userId);
}

export function readPendingUser(): { emailOrUsername: string } | null {
  const pending = parse(readStored(PENDING_USER_KEY));
  const emailOrUsername = (pending as { emailOrUsername?: unknown } | null)?.emailOrUsername;
  return typeof emailOrUsername === 'string' && emailOrUsername ? { emailOrUsername } : null;
}

export function savePendingUser(emailOrUsername: string): void {
  localStorage.setItem(PENDING_USER_KEY, JSON.stringify({ emailOrUsername }));
  announce();
}

export function clearPendingUser(): void {
  localStorage.removeItem(PENDING_USER_KEY);
  announce();
}

export function readResetTicket(): ResetTicket | null {
  const ticket = parse(readStored(RESET_KEY, 'session')) as Partial<ResetTicket> | null;
  const complete = typeof ticket?.email === 'string' && typeof ticket.pin === 'string' && typeof ticket.tempToken === 'string';
  return complete ? (ticket as ResetTicket) : null;
}

export function saveResetTicket(ticket: ResetTicket): void {
  sessionStorage.setItem(RESET_KEY, JSON.stringify(ticket));
}

export function clearResetTicket(): void {
  sessionStorage.removeItem(RESET_KEY);
}

/** Calls onChange after every change to the stored session, in this tab or another; returns the unsubscribe. */
export function subscribeSession(onChange: () => void): () => void {
  // 'storage' carries the changes other tabs make.
  window.addEventListener(AUTH_CHANGE_EVENT, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(AUTH_CHANGE_EVENT, onChange);
    window.removeEventListener('storage', onChange);
  };
}

export function useSession(): { user: SessionUser | null; authenticated: boolean } {
  const session = useSyncExternalStore(subscribeSession, readSession);
  return useMemo(() => ({ user: session.user, authenticated: authenticated(session) }), [session]);
}

/** Where a user lands after sign-in and when a guard sends them home (spec §2). */
export function homePath(user: SessionUser | null): string {
  if (!user) return '/login';
  if (isAdmin(user)) return '/';
  if (user.type === 'teammember' && user.websiteId) return `/websites/${user.websiteId}`;
  return '/user/websites';
}
