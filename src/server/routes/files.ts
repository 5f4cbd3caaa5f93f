import type { FastifyInstance } from 'fastify';
import { messages } from '../../contract/messages';
import type { ServerContext } from '../context';
import { FILE_KEY, FILE_TYPES } from '../files/storage';
import { HttpError } from '../http/errors';

/**
 * Stored uploads, served inert: the type is the one the server stored them as, browsers may not
 * guess another (nosniff), and opened on their own they run nothing and reach nothing (a sandbox
 * CSP); only images open in the browser, anything else (a PDF, whose viewer runs script) is a
 * download. A key names one file forever, so it may be cached for good.
 */
export async function fileRoutes(app: FastifyInstance, { files }: Pick<ServerContext, 'files'>) {
  app.get<{ Params: { folder: string; name: string } }>('/api/files/:folder/:name', { config: { policy: 'public' }, schema: { operationId: 'getFile', summary: 'A stored file (an upload, its thumbnail), served inert with the type it was sniffed as.' } }, async (request, reply) => {
    const key = `${request.params.folder}/${request.params.name}`;
    const data = FILE_KEY.test(key) ? await files.get(key) : null;
    if (!data) throw new HttpError(404, messages.notFound);
    const type = FILE_TYPES[key.slice(key.lastIndexOf('.') + 1)]!;
    return reply
      .header('content-type', type)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('content-disposition', type.startsWith('image/') ? 'inline' : 'attachment')
      // The websites show these pictures on their own origin (the delivery API hands out their URLs).
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(data);
  });
}
