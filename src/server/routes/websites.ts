import { and, asc, count, eq, inArray, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ActionAnswer, AnyAction } from '../../contract/action';
import type { Success } from '../../contract/envelope';
import { messages } from '../../contract/messages';
import { isAdmin } from '../../contract/permissions';
import { DEFAULT_PARTNER_TYPE, myPartners, partners as partnersEntry, type PartnerType } from '../../contract/resources/partners';
import { apiKeys as apiKeysEntry, clientWebsites, myWebsites, toggleApiKey, websites as websitesEntry } from '../../contract/resources/websites';
import { registerAction } from '../action';
import { hashToken, newToken } from '../auth/secrets';
import type { ServerContext } from '../context';
import { expectedVersion, registerResource, type Row, type Tx } from '../crud';
import { fieldError, HttpError } from '../http/errors';
import { ok } from '../http/reply';
import { caller, principal } from '../policy';
import { quote } from '../services/quote';
import type { Db } from '../store/open';
import { apiKeys, languages, partners, subcategories, technologies, users, websites } from '../store/schema';

type Values = Record<string, unknown>;

/** What the whole key starts with, so a leaked one is recognised by secret scanners and people alike. */
export const API_KEY_PREFIX = 'skp_';
/** How much of a key stays readable after it was shown: enough to tell keys apart, far too little to guess the rest. */
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

/** The partner type a website's prices follow: its partner record's, else the standard one. */
async function partnerTypeOf(tx: Tx | Db, partnerId: unknown): Promise<PartnerType> {
  if (typeof partnerId !== 'string') return DEFAULT_PARTNER_TYPE;
  const [partner] = await tx.select({ type: partners.type }).from(partners).where(eq(partners.id, partnerId));
  return partner?.type ?? DEFAULT_PARTNER_TYPE;
}

/** Every id of `ids` is a row of `table`, or the field is refused: lists of references have no foreign key to do it. */
async function allExist(tx: Tx, table: typeof technologies | typeof languages, ids: unknown, field: string): Promise<void> {
  if (!Array.isArray(ids) || ids.length === 0) return;
  const unique = [...new Set(ids as string[])];
  const [found] = await tx.select({ n: count() }).from(table).where(inArray(table.id, unique));
  if ((found?.n ?? 0) !== unique.length) throw fieldError(`body.${field}`, messages.unknownReference);
}

/**
 * Websites and partner records belong to owners and partners (spec §6): an admin naming an admin
 * or a team member as their owner would make a record nobody but admins can see.
 */
async function ownerIsOwnerAccount(tx: Tx, values: Values): Promise<Values> {
  if (typeof values.ownerId !== 'string') return values;
  const [owner] = await tx.select({ type: users.type }).from(users).where(eq(users.id, values.ownerId));
  // An unknown one is the foreign key's to refuse.
  if (owner && owner.type !== 'user' && owner.type !== 'partner') throw fieldError('body.ownerId', messages.notAnOwner);
  return values;
}

/** A website's references checked, and its price and modules worked out, from what it will be once written. */
async function completed(tx: Tx, next: Values, current: Row | null, creating: boolean): Promise<Values> {
  await ownerIsOwnerAccount(tx, next);
  const value = (key: string) => (key in next ? next[key] : current?.[key]);
  await allExist(tx, technologies, next.technologyIds, 'technologyIds');
  await allExist(tx, languages, next.languageIds, 'languageIds');
  const subcategoryId = value('subcategoryId');
  if (typeof subcategoryId === 'string' && ('subcategoryId' in next || 'categoryId' in next)) {
    const [subcategory] = await tx.select({ categoryId: subcategories.categoryId }).from(subcategories).where(eq(subcategories.id, subcategoryId));
    // An unknown one is the foreign key's to refuse.
    if (subcategory && subcategory.categoryId !== value('categoryId')) throw fieldError('body.subcategoryId', messages.subcategoryOfOtherCategory);
  }
  if (creating || 'items' in next || 'partnerId' in next) {
    const priced = await quote(tx as unknown as Db, (value('items') as string[] | undefined) ?? [], await partnerTypeOf(tx, value('partnerId')));
    return { ...next, ...priced };
  }
  return next;
}

/** The fields whose change is checked against, or priced with, the website's other values. */
const RELATED = ['categoryId', 'subcategoryId', 'items', 'partnerId'];

/** A list of the CRUD, narrowed by an action that declares the entry's list answer. */
type Listed<A extends AnyAction> = Promise<Success<ActionAnswer<A>>>;

export async function websiteRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.store.db;

  const partnerRoutes = registerResource(app, ctx, partnersEntry, partners, {
    beforeCreate: (values, { tx }) => ownerIsOwnerAccount(tx, values),
    beforeUpdate: (changes, { tx }) => ownerIsOwnerAccount(tx, changes),
  });
  registerAction(app, myPartners, (_input, request) =>
    // The caller's own records, admins' too: the sidebar's Settings link (spec §2) is about them.
    partnerRoutes.list(request, eq(partners.ownerId, caller(request).user.id)) as Listed<typeof myPartners>,
  );

  const websitesRoutes = registerResource(
    app,
    ctx,
    websitesEntry,
    websites,
    {
      async beforeCreate(values, { tx, request }) {
        const auth = caller(request);
        const stamped = { ...values };
        // A partner's website is theirs as partner too: their oldest active record is its partner.
        if (!isAdmin(principal(auth)) && auth.user.type === 'partner') {
          const [own] = await tx
            .select({ id: partners.id })
            .from(partners)
            .where(and(eq(partners.ownerId, auth.user.id), eq(partners.status, 'active')))
            .orderBy(asc(partners.createdAt))
            .limit(1);
          stamped.partnerId = own?.id ?? null;
        }
        return completed(tx, stamped, null, true);
      },
      async beforeUpdate(changes, { tx, request }) {
        // The stored row matters only where a change is checked against the rest (a subcategory
        // against its category) or repriced; a renamed website is not read first.
        if (!RELATED.some((key) => key in changes)) return completed(tx, changes, null, false);
        const [current] = (await tx.select().from(websites).where(eq(websites.id, request.website!.id))) as Row[];
        return completed(tx, changes, current ?? null, false);
      },
    },
    { ownedThrough: { partnerId: { table: partners, owner: 'ownerId' } }, imageColumn: 'previewKey' },
  );

  registerAction(app, myWebsites, (_input, request) => {
    const { user } = caller(request);
    // A team member's one website; everyone else's are those they own or partner, admins' included.
    if (user.type === 'teammember') return websitesRoutes.list(request, eq(websites.id, user.websiteId ?? sql`null`), false) as Listed<typeof myWebsites>;
    if (!isAdmin(principal(caller(request)))) return websitesRoutes.list(request) as Listed<typeof myWebsites>;
    // An admin's scope is every website: narrowed to theirs as it is for owners, through their partner records too.
    const partnered = inArray(websites.partnerId, db.select({ id: partners.id }).from(partners).where(eq(partners.ownerId, user.id)));
    return websitesRoutes.list(request, or(eq(websites.ownerId, user.id), partnered)) as Listed<typeof myWebsites>;
  });

  registerAction(app, clientWebsites, ({ params: { id } }, request) => {
    if (!z.uuid().safeParse(id).success) throw new HttpError(404, messages.notFound);
    return websitesRoutes.list(request, eq(websites.ownerId, id)) as Listed<typeof clientWebsites>;
  });

  const keyRoutes = registerResource(app, ctx, apiKeysEntry, apiKeys, {
    async beforeCreate(values, { tx, request, reveal }) {
      // Making a key again replaces the old one, which stops working at once.
      await tx.delete(apiKeys).where(eq(apiKeys.websiteId, request.website!.id));
      const key = `${API_KEY_PREFIX}${newToken()}`;
      reveal.key = key;
      return { ...values, keyHash: hashToken(key), prefix: key.slice(0, SHOWN_PREFIX_LENGTH) };
    },
  });

  registerAction(
    app,
    toggleApiKey,
    async (_input, request, reply) => {
      // Switched from the version the caller saw, like every other change: a stale one is a conflict.
      const version = expectedVersion(request);
      const ofWebsite = eq(apiKeys.websiteId, request.website!.id);
      const [row] = (await db
        .update(apiKeys)
        .set({ isActive: sql`not ${apiKeys.isActive}`, version: version + 1, updatedAt: ctx.clock() })
        .where(and(ofWebsite, eq(apiKeys.version, version)))
        .returning()) as Row[];
      if (!row) throw await keyRoutes.missOrConflict(request, ofWebsite);
      reply.header('etag', `"${row.version}"`);
      return ok(keyRoutes.entity(request, row) as ActionAnswer<typeof toggleApiKey>, { message: request.t(row.isActive ? messages.apiKeyEnabled : messages.apiKeyDisabled) });
    },
    { config: { website: { from: 'path', param: 'id' } } },
  );
}
