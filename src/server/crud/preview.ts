import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { messages } from '../../contract/messages';
import { mintPreviewToken, previewUrl } from '../content/preview';
import { HttpError } from '../http/errors';
import { revealOnce } from '../http/idempotency';
import { ok } from '../http/reply';
import { websites } from '../store/schema';
import type { ResourceContext } from './context';
import { itemWhere, parentFound } from './rows';
import type { Row } from './types';

/**
 * A draft's preview (contract/resource.ts `preview`): the record must be one the caller may read,
 * as for `get`; the answer is the website's preview page with a token for this record alone. The
 * token is shown, never kept, not even with the answer an Idempotency-Key stores.
 */
export async function preview(context: ResourceContext, request: FastifyRequest, secret: string) {
  await parentFound(context, request);
  const [row] = (await context.db.select().from(context.table).where(itemWhere(context, request))) as Row[];
  if (!row) throw new HttpError(404, messages.notFound);
  const websiteId = request.website!.id;
  const [website] = await context.db.select({ address: websites.previewAddress }).from(websites).where(eq(websites.id, websiteId));
  const kind = context.resource.preview!.kind;
  const id = String(row.id);
  const { token, expiresAt } = mintPreviewToken(secret, { websiteId, kind, id }, context.clock());
  const url = previewUrl(website?.address ?? '', { kind, id, slug: typeof row.slug === 'string' && row.slug ? row.slug : null, token });
  revealOnce(request, { token, ...(url && { url }) });
  return ok({ url, token, expiresAt: expiresAt.toISOString() }, url ? {} : { message: request.t(messages.previewNoAddress) });
}
