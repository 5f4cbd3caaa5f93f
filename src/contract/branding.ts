import { z } from 'zod/mini';

/** The product's own name, shown when no white-label configuration exists. */
export const DEFAULT_PRODUCT_NAME = 'Sitekeeper';
/** Spec §1: a white-label configuration without a name brands the product as "CMS". */
export const UNNAMED_WHITE_LABEL = 'CMS';

/**
 * `GET /api/white-label/config` (public: the sign-in page shows it): the spec's cmsName and
 * cmsLogoUrl, the footer's links and the language of visitors who have not chosen one. Fields
 * after the spec's two default, so a copy kept by an older version still reads.
 */
export const WhiteLabelConfigSchema = z.object({
  cmsName: z.string(),
  cmsLogoUrl: z.nullable(z.string()),
  helpUrl: z._default(z.string(), ''),
  supportUrl: z._default(z.string(), ''),
  // The interface languages (languages.ts), spelled out: vite.config.ts reads this file before any resolver runs.
  defaultLanguage: z._default(z.enum(['en', 'de']), 'en'),
});
export type WhiteLabelConfig = z.infer<typeof WhiteLabelConfigSchema>;

export const DEFAULT_BRANDING: WhiteLabelConfig = { cmsName: DEFAULT_PRODUCT_NAME, cmsLogoUrl: null, helpUrl: '', supportUrl: '', defaultLanguage: 'en' };
