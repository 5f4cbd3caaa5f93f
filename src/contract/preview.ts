import { z } from 'zod/mini';

/**
 * Draft preview (server/content/preview.ts): what a website is told a previewed record is, and the
 * delivery API's header that carries the token for it.
 */
export const PREVIEW_KINDS = ['page', 'post', 'gastroMenu'] as const;
export type PreviewKind = (typeof PREVIEW_KINDS)[number];
export const PREVIEW_HEADER = 'X-Preview-Token';
/** How long a preview link works: long enough to look and share it in the team, short enough not to be a second publishing. */
export const PREVIEW_TTL_MS = 60 * 60 * 1000;

/** Where a record's preview is asked for: beside the record. */
export const previewPath = (itemPath: string) => `${itemPath}/preview`;

/** The website's preview page with the token, or null while the website has no preview address; the token either way. */
export const PreviewSchema = z.object({ url: z.nullable(z.string()), token: z.string(), expiresAt: z.iso.datetime({ offset: true }) });
export type Preview = z.infer<typeof PreviewSchema>;
