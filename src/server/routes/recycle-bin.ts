import { and, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { messages } from '../../contract/messages';
import { allows, isAdmin } from '../../contract/permissions';
import { adminRecycleBin, recycleBin, recycleBinMessages, restoreFromAdminRecycleBin, restoreFromRecycleBin } from '../../contract/resources/recycle-bin';
import { registerAction } from '../action';
import type { ServerContext } from '../context';
import { dropFilesOfRecords, registerResource, restoreTransaction, type ResourceContext, type ResourceHooks } from '../crud';
import { HttpError } from '../http/errors';
import { isUuid } from '../http/ids';
import { ok } from '../http/reply';
import { caller, principal } from '../policy';
import { recycleBin as binTable, revisions } from '../store/schema';

// The recycle bin (issue 20, ADR 025): the generic delete writes its rows (crud/recycle-bin.ts);
// here they are read, purged and restored. Who sees an entry of the bin is who may list what it
// was; purging it needs that entry's delete policy, restoring it its create policy — checked here,
// since the routes' own policy lets any of the website's people in.

type BinRow = typeof binTable.$inferSelect;

export async function recycleBinRoutes(app: FastifyInstance, ctx: ServerContext) {
  const { store } = ctx;
  /** The registered entry of that name (the bin's rows name their entry). */
  const entryNamed = (name: string): ResourceContext | undefined => [...ctx.entries.values()].flat().find((context) => context.resource.name === name);
  const may = (request: FastifyRequest, operation: 'list' | 'create' | 'delete', name: string) => {
    const entry = entryNamed(name);
    return entry !== undefined && allows(entry.resource.access[operation], principal(caller(request)));
  };

  /** Everyone but admins sees the entries of what they may list (a team member's role). */
  function visible(request: FastifyRequest): SQL | undefined {
    const who = principal(caller(request));
    if (isAdmin(who)) return undefined;
    const names = [...ctx.entries.values()].flat().filter((context) => allows(context.resource.access.list, who)).map((context) => context.resource.name);
    return inArray(binTable.resource, names);
  }

  /** Purged at once: only by whoever may delete what it was; its records go with it (the delete's revisions), and their files. */
  const purge: ResourceHooks['afterDelete'] = async (row, { tx, request }) => {
    const bin = row as unknown as BinRow;
    // What the caller may not even list is unknown to them, as its read answers.
    if (!may(request, 'list', bin.resource)) throw new HttpError(404, messages.notFound);
    if (!may(request, 'delete', bin.resource)) throw new HttpError(403, messages.forbidden);
    const gone = await tx
      .delete(revisions)
      .where(and(eq(revisions.tx, bin.tx), eq(revisions.action, 'delete')))
      .returning({ tableName: revisions.tableName, values: revisions.values });
    dropFilesOfRecords(ctx.entries, gone, request.log);
  };

  registerResource(app, ctx, recycleBin, binTable, { narrow: visible, afterDelete: purge });
  registerResource(app, ctx, adminRecycleBin, binTable, { narrow: () => isNull(binTable.websiteId), afterDelete: purge });

  /** Brings back the bin's entry `binId` of this website (null: the admin area): its records, then the entry is gone. */
  async function restore(request: FastifyRequest, binId: string, websiteId: string | null) {
    if (!isUuid(binId)) throw new HttpError(404, messages.notFound);
    return store.db.transaction(async (tx) => {
      const [bin] = await tx
        .select()
        .from(binTable)
        .where(and(eq(binTable.id, binId), websiteId === null ? isNull(binTable.websiteId) : eq(binTable.websiteId, websiteId), websiteId === null ? undefined : visible(request)))
        .for('update');
      if (!bin) throw new HttpError(404, messages.notFound);
      if (!may(request, 'create', bin.resource)) throw new HttpError(403, messages.forbidden);
      const restored = await restoreTransaction(ctx.entries, tx, request, bin.tx);
      await tx.delete(binTable).where(eq(binTable.id, bin.id));
      const title = bin.title || request.t(entryNamed(bin.resource)?.resource.label.one ?? recycleBinMessages.record);
      return ok({ resource: bin.resource, recordId: bin.recordId, restored }, { message: request.t(recycleBinMessages.restored, { title }) });
    });
  }

  registerAction(app, restoreFromRecycleBin, ({ params }, request) => restore(request, params.binId, request.website!.id));
  registerAction(app, restoreFromAdminRecycleBin, ({ params }, request) => restore(request, params.binId, null));
}
