import fastifySse, { type SSEReplyInterface } from '@fastify/sse';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successSchema } from '../../contract/envelope';
import { ChangeSchema, EVENTS_PATH, LIVE_EVENTS, StreamPositionSchema, type Change } from '../../contract/live';
import { allows, isAdmin } from '../../contract/permissions';
import { authenticate, type Authenticated } from '../auth/sessions';
import type { ServerContext } from '../context';
import type { ResourceContext } from '../crud';
import { ok } from '../http/reply';
import { secureAnswer } from '../http/security-headers';
import { bearer, caller, principal, reachable } from '../policy';
import type { Db } from '../store/store';
import { websites } from '../store/schema';
import type { Heard } from './changes';

/** Who is listening, as of now: their session, and the websites they reach (null: every one, an admin). */
interface Viewer {
  auth: Authenticated;
  websites: ReadonlySet<string> | null;
}

/** Changes of these can change what a session may read: its account, its role, its websites. */
const ACCESS_TABLES = new Set(['users', 'team_roles', 'websites', 'partners']);
/** A session ended elsewhere (signed out, expired) stops hearing within this long. */
const RECHECK_MS = 60_000;

async function viewerOf(db: Db, auth: Authenticated): Promise<Viewer> {
  const where = reachable(db, auth);
  if (where === undefined) return { auth, websites: null };
  const rows = await db.select({ id: websites.id }).from(websites).where(where);
  return { auth, websites: new Set(rows.map((row) => row.id)) };
}

/**
 * Whether the viewer may read the entry's record the change is of: the same rule as the entry's
 * `get` route (policy.ts), from what the change says — its website, the entry's policy, the
 * session's role — without a query per change.
 */
function readable({ auth, websites: reached }: Viewer, entry: ResourceContext, change: Heard): boolean {
  const policy = entry.resource.access.get;
  const who = principal(auth);
  const reaches = (website: string | null) => website !== null && (reached === null || reached.has(website));
  if (typeof policy === 'object') return reaches(change.website) && allows(policy, who);
  // An owner-scoped record (a website) is its owners'; one of no website (a partner record), the admins'.
  if (entry.resource.scope === 'owner') return change.website === null ? isAdmin(who) : reaches(change.website);
  return policy !== 'public' && policy !== 'apiKey' && allows(policy, who);
}

/**
 * Live updates (contract/live.ts): the changes a session may read, pushed as Server-Sent Events
 * (@fastify/sse), from the change feed every server of the database hears. What a session may
 * read is worked out again when its account, role or websites change, and every minute, when a
 * session that ended elsewhere stops hearing.
 */
export async function liveRoutes(app: FastifyInstance, { store, clock, entries, changes: feed }: Pick<ServerContext, 'store' | 'clock' | 'entries' | 'changes'>) {
  // Streams never end by themselves: a server shutting down ends them (devices come back to another).
  const open = new Set<SSEReplyInterface>();
  app.addHook('preClose', async () => {
    for (const sse of open) sse.close();
  });
  await app.register(fastifySse, { heartbeatInterval: 25_000 });

  app.withTypeProvider<ZodTypeProvider>().get(
    EVENTS_PATH,
    {
      sse: 'dual',
      config: { policy: 'authenticated' },
      schema: {
        operationId: 'streamChanges',
        summary: 'Changes of what the session may read, as Server-Sent Events (Accept: text/event-stream; Last-Event-ID to resume); as JSON, the last change heard.',
        response: { 200: successSchema(StreamPositionSchema) },
      },
    },
    async (request, reply) => {
      const sse = reply.sse as SSEReplyInterface | undefined;
      if (!sse) return ok({ lastEventId: feed.latest() });
      // The stream's head goes out at once, before any onSend hook would add these.
      secureAnswer(reply);
      await stream(request, sse);
      // Node holds the head back until the first bytes; the device should know at once it is heard.
      reply.raw.flushHeaders();
    },
  );

  async function stream(request: FastifyRequest, sse: SSEReplyInterface) {
    const token = bearer(request)!;
    let viewer = await viewerOf(store.db, caller(request));
    sse.keepAlive();
    sse.sendHeaders();

    const send = (event: { id?: string; event: string; data: Change | object }) => void sse.send(event).catch(() => sse.close());
    const tell = (change: Heard) => {
      const names = (entries.get(change.table) ?? []).filter((entry) => readable(viewer, entry, change)).map((entry) => entry.resource.name);
      if (names.length === 0) return;
      const { record, website, action, version } = change;
      send({ id: change.id, event: LIVE_EVENTS.change, data: ChangeSchema.parse({ entries: names, record, website, action, version }) });
    };
    const reset = () => send({ event: LIVE_EVENTS.reset, data: {} });

    // One thing at a time, in the order heard: a change waits for the look at the rights before it.
    let queue: Promise<void> = Promise.resolve();
    const after = (work: () => void | Promise<void>) => (queue = queue.then(work).catch(() => sse.close()));
    const lookAgain = async () => {
      const auth = await authenticate(store.db, token, clock());
      if (!auth) return sse.close();
      viewer = await viewerOf(store.db, auth);
    };

    const missed = sse.lastEventId ? feed.since(sse.lastEventId) : [];
    if (missed === null) reset();
    else for (const change of missed) tell(change);

    const stop = feed.subscribe((change) => {
      if (change === 'gap') return void after(reset);
      after(async () => {
        if (ACCESS_TABLES.has(change.table)) await lookAgain();
        tell(change);
      });
    });
    const recheck = setInterval(() => void after(lookAgain), RECHECK_MS);
    recheck.unref();
    open.add(sse);
    sse.onClose(() => {
      open.delete(sse);
      stop();
      clearInterval(recheck);
    });
  }
}
