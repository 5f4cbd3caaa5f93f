import { and, eq, inArray } from 'drizzle-orm';
import type { InterfaceLanguage } from '../../contract/languages';
import { messages } from '../../contract/messages';
import { MODULE } from '../../contract/modules';
import { CMS_MODULES, type CmsModule } from '../../contract/permissions';
import type { PartnerType } from '../../contract/resources/partners';
import {
  DEFAULT_CURRENCY,
  mixedCurrencies,
  parseServiceItemId,
  priceFor,
  SERVICE_ITEM_KINDS,
  serviceItemId,
  type ServiceItem,
  type ServiceItemKind,
} from '../../contract/resources/services';
import { fieldError } from '../http/errors';
import { translator } from '../http/i18n';
import type { Db } from '../store/open';
import { services } from '../store/schema';

export type ServiceRow = typeof services.$inferSelect;

export interface Quote {
  /** Cents of `currency`. */
  price: number;
  currency: string;
  /** The CMS modules the items include. */
  modules: CmsModule[];
}

/** The priced items of `kind` one service offers, named in `language`, priced for `partnerType`. */
export function itemsOf(row: ServiceRow, kind: ServiceItemKind, partnerType: PartnerType, language: InterfaceLanguage): ServiceItem[] {
  const serviceName = language === 'en' ? row.name : row.content[language]?.name || row.name;
  const base = { serviceId: row.id, serviceName, serviceType: row.type, currency: row.currency, description: '' };
  switch (kind) {
    case 'service':
      return [{ ...base, id: serviceItemId({ kind, serviceId: row.id }), kind, key: '', name: serviceName, description: row.description, price: priceFor(row.prices, partnerType) }];
    case 'feature':
      return row.features.map((feature) => ({
        ...base,
        id: serviceItemId({ kind, serviceId: row.id, key: feature.key }),
        kind,
        key: feature.key,
        name: (language === 'de' && feature.name.de) || feature.name.en,
        price: priceFor(feature.prices, partnerType),
      }));
    case 'module': {
      const t = translator(language);
      return row.modules.map((entry) => ({
        ...base,
        id: serviceItemId({ kind, serviceId: row.id, module: entry.module }),
        kind,
        key: entry.module,
        name: t(MODULE[entry.module].name),
        price: priceFor(entry.prices, partnerType),
      }));
    }
  }
}

/**
 * What a website composed of `items` costs for a partner of `partnerType`, and which CMS modules
 * it includes: the same priced items the website form offers (`itemsOf`), so the form's estimate
 * and the stored price cannot disagree.
 *
 * - Each distinct item counts once; an item's price is its partner type's, else the standard one.
 * - A feature or module may be chosen without its service's own item: it is priced on its own
 *   (an add-on bought for a package the website already has).
 * - An item of an inactive or unknown service, or a feature or module the service no longer has,
 *   is refused (`field.unknownReference`), and so are items of several currencies.
 */
export async function quote(db: Db, items: readonly string[], partnerType: PartnerType): Promise<Quote> {
  const chosen = [...new Set(items)];
  const refs = chosen.map(parseServiceItemId);
  if (refs.some((ref) => ref === null)) throw fieldError('body.items', messages.unknownReference);
  if (chosen.length === 0) return { price: 0, currency: DEFAULT_CURRENCY, modules: [] };
  const ids = [...new Set(refs.map((ref) => ref!.serviceId))];
  const rows = await db
    .select()
    .from(services)
    .where(and(inArray(services.id, ids), eq(services.active, true)));
  const offered = new Map(rows.flatMap((row) => SERVICE_ITEM_KINDS.flatMap((kind) => itemsOf(row, kind, partnerType, 'en'))).map((item) => [item.id, item]));
  const picked = chosen.map((id) => offered.get(id));
  if (picked.some((item) => item === undefined)) throw fieldError('body.items', messages.unknownReference);
  const currencies = new Set(picked.map((item) => item!.currency));
  if (currencies.size > 1) throw fieldError('body.items', mixedCurrencies);
  const modules = new Set(picked.flatMap((item) => (item!.kind === 'module' ? [item!.key] : [])));
  return {
    price: picked.reduce((sum, item) => sum + item!.price, 0),
    currency: [...currencies][0]!,
    modules: CMS_MODULES.filter((module) => modules.has(module)),
  };
}
