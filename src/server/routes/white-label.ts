import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_BRANDING, UNNAMED_WHITE_LABEL, type WhiteLabelConfig } from '../../contract/branding';
import { ok } from '../http/reply';
import type { Db, Store } from '../store/open';
import { settings } from '../store/schema';

export const WHITE_LABEL_KEY = 'white-label';

type StoredWhiteLabel = { cmsName?: string | null; cmsLogoUrl?: string | null };

function resolveBranding(row: StoredWhiteLabel | undefined): WhiteLabelConfig {
  if (!row) return DEFAULT_BRANDING;
  return { cmsName: row.cmsName?.trim() || UNNAMED_WHITE_LABEL, cmsLogoUrl: row.cmsLogoUrl?.trim() || null };
}

/** The branding in force: the answer of the config route, and the product name in mails. */
export async function loadBranding(db: Db): Promise<WhiteLabelConfig> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, WHITE_LABEL_KEY));
  return resolveBranding(row?.value as StoredWhiteLabel | undefined);
}

export async function whiteLabelRoutes(app: FastifyInstance, { store }: { store: Store }) {
  app.get('/api/white-label/config', { config: { policy: 'public' } }, async () => ok(await loadBranding(store.db)));
}
