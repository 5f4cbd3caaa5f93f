import { z } from 'zod/mini';
import type { InterfaceLanguage } from '../contract/languages';
import type { PartnerType } from '../contract/resources/partners';
import { services, ServiceItemSchema, type ServiceItem, type ServiceItemKind } from '../contract/resources/services';
import { resourceText } from './resource-text';
import { requestData } from './request';

const PATHS: Record<ServiceItemKind, string> = {
  service: '/api/services/flattened',
  feature: '/api/services/flattened/features',
  module: '/api/services/flattened/modules',
};

/** The priced items of one kind of every active service, named in `language`, priced for `partnerType`. */
export function fetchServiceItems(kind: ServiceItemKind, partnerType: PartnerType, language: InterfaceLanguage, signal?: AbortSignal): Promise<ServiceItem[]> {
  const query = new URLSearchParams({ partnerType, language });
  return requestData(`${PATHS[kind]}?${query}`, z.array(ServiceItemSchema), { signal, fallback: resourceText(services, 'loadFailed') });
}

/** Every priced item: the services, then their features, then their modules. */
export async function fetchAllServiceItems(partnerType: PartnerType, language: InterfaceLanguage, signal?: AbortSignal): Promise<ServiceItem[]> {
  const lists = await Promise.all((['service', 'feature', 'module'] as const).map((kind) => fetchServiceItems(kind, partnerType, language, signal)));
  return lists.flat();
}
