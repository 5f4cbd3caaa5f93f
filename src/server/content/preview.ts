import { createHmac, timingSafeEqual } from 'node:crypto';
import { PREVIEW_KINDS, PREVIEW_TTL_MS, type PreviewKind } from '../../contract/preview';

/**
 * A preview token: which website's record it shows (kind and id) and until when, signed with a
 * key derived from APP_SECRET. Nothing is stored: the signature is the proof, and a token cannot
 * be recalled before its hour is up (a draft shown is no secret kept; publishing is the real gate).
 */
interface Claim {
  websiteId: string;
  kind: PreviewKind;
  id: string;
}

const keyOf = (secret: string) => createHmac('sha256', secret).update('sitekeeper draft preview').digest();
const sign = (secret: string, payload: string) => createHmac('sha256', keyOf(secret)).update(payload).digest('base64url');

export function mintPreviewToken(secret: string, claim: Claim, now: Date): { token: string; expiresAt: Date } {
  const expiresAt = new Date(now.getTime() + PREVIEW_TTL_MS);
  const payload = Buffer.from(JSON.stringify({ w: claim.websiteId, k: claim.kind, i: claim.id, e: expiresAt.getTime() })).toString('base64url');
  return { token: `${payload}.${sign(secret, payload)}`, expiresAt };
}

/** The record a token shows on this website, or null when it is forged, expired or of another website. */
export function readPreviewToken(secret: string, token: string, websiteId: string, now: Date): Omit<Claim, 'websiteId'> | null {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const { w, k, i, e } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { w: unknown; k: unknown; i: unknown; e: unknown };
    if (w !== websiteId || typeof e !== 'number' || e <= now.getTime() || typeof i !== 'string' || !PREVIEW_KINDS.includes(k as PreviewKind)) return null;
    return { kind: k as PreviewKind, id: i };
  } catch {
    return null;
  }
}

/** The website's preview page with what it needs to ask the delivery API for the draft. */
export function previewUrl(address: string, { kind, id, slug, token }: { kind: PreviewKind; id: string; slug: string | null; token: string }): string | null {
  if (!address) return null;
  const url = new URL(address);
  url.searchParams.set('preview', token);
  url.searchParams.set('type', kind);
  url.searchParams.set('id', id);
  if (slug) url.searchParams.set('slug', slug);
  return url.toString();
}
