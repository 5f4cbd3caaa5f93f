import type { InterfaceLanguage } from '../contract/languages';
import type { PartnerType } from '../contract/resources/partners';
import { services, SERVICE_ITEM_KINDS, SERVICE_ITEM_LISTS, type ServiceItem, type ServiceItemKind } from '../contract/resources/services';
import { call } from './action';
import { resourceText } from './resource-text';

/** The priced items of one kind of every active service, named in `language`, priced for `partnerType`. */
export async function fetchServiceItems(kind: ServiceItemKind, partnerType: PartnerType, language: InterfaceLanguage, signal?: AbortSignal): Promise<ServiceItem[]> {
  const { data } = await call(SERVICE_ITEM_LISTS[kind], { query: { partnerType, language } }, { signal, fallback: resourceText(services, 'loadFailed') });
  return data;
}

/** Every priced item: the services, then their features, then their modules. */
export async function fetchAllServiceItems(partnerType: PartnerType, language: InterfaceLanguage, signal?: AbortSignal): Promise<ServiceItem[]> {
  const lists = await Promise.all(SERVICE_ITEM_KINDS.map((kind) => fetchServiceItems(kind, partnerType, language, signal)));
  return lists.flat();
}
