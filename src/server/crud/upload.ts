import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../../contract/messages';
import { readForm, toWebp } from '../files/images';
import { HttpError } from '../http/errors';
import { ok } from '../http/reply';
import { say, tag, toEntity } from './answer';
import type { ResourceContext } from './context';
import { itemWhere } from './rows';
import type { Row } from './types';

/**
 * A new image for the record: the whole form read (a cut-off one stores nothing), the image
 * stored, then put in place of the old one, which is removed once nothing refers to it.
 */
export async function upload(context: ResourceContext, request: FastifyRequest, reply: FastifyReply) {
  const { db, table, clock, column } = context;
  const { column: imageColumn, files } = context.image!;
  const where = itemWhere(context, request);
  const [file] = (await readForm(request, 1)).files;
  const stored = await toWebp(file!.data);
  const key = column(imageColumn);
  // A store that failed part-way may have left the file: it goes with whatever failed.
  const [row, replaced] = await files
    .put(stored.key, stored.data)
    .then(() =>
      db.transaction(async (tx) => {
        const [before] = await tx.select({ key }).from(table).where(where).for('update');
        if (!before) return [undefined, null] as const;
        const [changed] = (await tx
          .update(table)
          .set({ [imageColumn]: stored.key, version: sql`${column('version')} + 1`, updatedAt: clock() })
          .where(where)
          .returning()) as Row[];
        return [changed, before.key as string | null] as const;
      }),
    )
    .catch(async (error: unknown) => {
      await files.remove(stored.key);
      throw error;
    });
  if (!row) {
    await files.remove(stored.key);
    throw new HttpError(404, messages.notFound);
  }
  if (replaced) await files.remove(replaced);
  tag(reply, row);
  return ok(toEntity(context, request, row), { message: say(context, request, 'updated') });
}
