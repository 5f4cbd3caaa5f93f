import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { messages } from '../../contract/messages';
import { PartnerType } from '../../contract/resources/partners';
import { DEFAULT_CURRENCY, getServicePrice, priceFor, SERVICE_ITEM_KINDS, SERVICE_ITEM_LISTS, services as servicesEntry } from '../../contract/resources/services';
import { registerAction } from '../action';
import type { ServerContext } from '../context';
import { registerResource } from '../crud';
import { HttpError } from '../http/errors';
import { isUuid } from '../http/ids';
import { ok } from '../http/reply';
import { itemsOf, type ServiceRow } from '../services/quote';
import { services } from '../store/schema';
import { alphabetical } from '../store/schema/collation';

/** A currency left empty (a form's blank) is the default one. */
const withCurrency = (values: Record<string, unknown>) => (values.currency === '' ? { ...values, currency: DEFAULT_CURRENCY } : values);

/**
 * Services priced per partner type (spec §7 "Other"): the CRUD an admin keeps them with (a list's
 * `?partnerType=` adds each one's `price`), a service's price for a partner type, and the priced
 * items of the active services, flattened, for the website form.
 */
export async function serviceRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.store.db;

  registerResource(app, ctx, servicesEntry, services, {
    beforeCreate: withCurrency,
    beforeUpdate: withCurrency,
    present(entity, row, request) {
      // Only the list parses `partnerType`; other routes' queries are read as they came, and checked here.
      const partnerType = PartnerType.safeParse((request.query as { partnerType?: unknown } | undefined)?.partnerType);
      return partnerType.success ? { ...entity, price: priceFor(row.prices as ServiceRow['prices'], partnerType.data) } : entity;
    },
  });

  registerAction(app, getServicePrice, async ({ params: { id }, query: { partnerType } }) => {
    if (!isUuid(id)) throw new HttpError(404, messages.notFound);
    const [row] = await db.select({ prices: services.prices, currency: services.currency }).from(services).where(eq(services.id, id));
    if (!row) throw new HttpError(404, messages.notFound);
    return ok({ serviceId: id, partnerType, price: priceFor(row.prices, partnerType), currency: row.currency });
  });

  // The items of each kind of every active service, in the services' order.
  for (const kind of SERVICE_ITEM_KINDS) {
    registerAction(app, SERVICE_ITEM_LISTS[kind], async ({ query: { partnerType, language } }) => {
      const rows = await db
        .select()
        .from(services)
        .where(eq(services.active, true))
        .orderBy(asc(services.order), asc(alphabetical(services.name)), asc(services.id));
      return ok(rows.flatMap((row) => itemsOf(row, kind, partnerType, language)));
    });
  }
}
