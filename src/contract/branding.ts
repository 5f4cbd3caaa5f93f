import { z } from 'zod/mini';

/** The product's own name, shown when no white-label configuration exists. */
export const DEFAULT_PRODUCT_NAME = 'Sitekeeper';
/** Spec §1: a white-label configuration without a name brands the product as "CMS". */
export const UNNAMED_WHITE_LABEL = 'CMS';

export const WhiteLabelConfigSchema = z.object({
  cmsName: z.string(),
  cmsLogoUrl: z.nullable(z.string()),
});
export type WhiteLabelConfig = z.infer<typeof WhiteLabelConfigSchema>;

export const DEFAULT_BRANDING: WhiteLabelConfig = { cmsName: DEFAULT_PRODUCT_NAME, cmsLogoUrl: null };
