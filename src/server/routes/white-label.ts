import type { FastifyInstance } from 'fastify';
import { DEFAULT_PRODUCT_NAME, UNNAMED_WHITE_LABEL, type WhiteLabelConfig } from '../../contract/branding';
import { toInterfaceLanguage } from '../../contract/languages';
import { getWhiteLabelConfig } from '../../contract/resources/settings';
import { registerAction } from '../action';
import { fileUrl } from '../files/storage';
import { ok } from '../http/reply';
import type { Db, Store } from '../store/open';
import { appSettings } from '../store/schema';

export type SettingsRow = typeof appSettings.$inferSelect;

/** The one settings row (the migration that made the table made it). */
export async function loadSettings(db: Db): Promise<SettingsRow> {
  const [row] = await db.select().from(appSettings).limit(1);
  if (!row) throw new Error('The settings row is missing');
  return row;
}

/**
 * Spec §1: without a white-label configuration (no name, no logo) the product's own name; a
 * configuration without a name reads "CMS".
 */
export function brandingOf(row: SettingsRow): WhiteLabelConfig {
  const configured = row.cmsName !== '' || row.cmsLogoKey !== null;
  return {
    cmsName: row.cmsName || (configured ? UNNAMED_WHITE_LABEL : DEFAULT_PRODUCT_NAME),
    cmsLogoUrl: fileUrl(row.cmsLogoKey),
    helpUrl: row.helpUrl,
    supportUrl: row.supportUrl,
    defaultLanguage: toInterfaceLanguage(row.defaultLanguage),
  };
}

export async function whiteLabelRoutes(app: FastifyInstance, { store }: { store: Store }) {
  registerAction(app, getWhiteLabelConfig, async () => ok(brandingOf(await loadSettings(store.db))));
}
