import { readStored } from './storage';

/**
 * The last screens a person saw on this device, as they were painted, so the installed app opened
 * again paints them before its code has loaded (public/snapshot.js reads this key, the same way;
 * ADR 032). Only for the signed-in user who saw them and the build that drew them; never a screen
 * holding a value shown once; emptied at sign-out with the rest of the session.
 */
export const SNAPSHOT_KEY = 'snapshots';
/** Screens kept, the latest first: the few an owner goes back to. */
const KEPT = 4;
/** A screen larger than this (a long menu drawn whole) is not kept: localStorage holds a few MB. */
const MAX_CHARACTERS = 400_000;

export interface Snapshot {
  user: string;
  /** The entry script of the build that drew it: another build's class names and stylesheets differ. */
  build: string;
  path: string;
  /** Stylesheets of the build the screen used, under /assets/. */
  styles: string[];
  html: string;
}

function stored(): Snapshot[] {
  try {
    const parsed: unknown = JSON.parse(readStored(SNAPSHOT_KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as Snapshot[]) : [];
  } catch {
    return [];
  }
}

function write(snapshots: Snapshot[]): void {
  try {
    if (snapshots.length === 0) localStorage.removeItem(SNAPSHOT_KEY);
    else localStorage.setItem(SNAPSHOT_KEY, JSON.stringify(snapshots));
  } catch {
    // Full, or storage blocked: a screen not kept is only a slower start.
  }
}

/** Keeps `snapshot` as the latest (or forgets its path's, when `snapshot.html` is null: a screen not to keep). */
export function keepSnapshot(snapshot: Omit<Snapshot, 'html'> & { html: string | null }): void {
  const others = stored().filter((kept) => kept.user === snapshot.user && kept.path !== snapshot.path);
  const { html } = snapshot;
  write(html === null || html.length > MAX_CHARACTERS ? others : [{ ...snapshot, html }, ...others].slice(0, KEPT));
}

export function forgetSnapshots(): void {
  write([]);
}
