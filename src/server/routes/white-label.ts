import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_BRANDING, UNNAMED_WHITE_LABEL, type WhiteLabelConfig } from '../../contract/branding';
import { ok } from '../http/reply';
import type { Store } from '../store/open';
import { settings } from '../store/schema';

export const WHITE_LABEL_KEY = 'white-label';

type StoredWhiteLabel = { cmsName?: string | null; cmsLogoUrl?: string | null };

export function resolveBranding(row: StoredWhiteLabel | undefined): WhiteLabelConfig {
  if (!row) return DEFAULT_BRANDING;
  return { cmsName: row.cmsName?.trim() || UNNAMED_WHITE_LABEL, cmsLogoUrl: row.cmsLogoUrl?.trim() || null };
}

export async function whiteLabelRoutes(app: FastifyInstance, { store }: { store: Store }) {
  app.get('/api/white-label/config', { config: { policy: 'public' } }, async () => {
    const [row] = await store.db.select({ value: settings.value }).from(settings).where(eq(settings.key, WHITE_LABEL_KEY));
    return ok(resolveBranding(row?.value as StoredWhiteLabel | undefined));
  });
}
