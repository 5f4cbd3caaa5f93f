import type { ActionArgs, ActionData } from '../contract/action';
import { DEFAULT_PARTNER_TYPE, myPartners as myPartnersAction, type PartnerType } from '../contract/resources/partners';
import { call } from './action';

/** The signed-in account's own partner records (`/api/partners/my-partners`); any failure yields none (spec §8). */
async function myPartners(query: ActionArgs<typeof myPartnersAction>['query'], signal?: AbortSignal): Promise<ActionData<typeof myPartnersAction>> {
  try {
    return (await call(myPartnersAction, { query }, { signal })).data;
  } catch {
    return [];
  }
}

/** The ids of the signed-in partner's own partner records: the sidebar's Settings rule (spec §2). */
export async function fetchMyPartnerIds(signal?: AbortSignal): Promise<string[]> {
  return (await myPartners({}, signal)).map((partner) => partner._id);
}

/**
 * The partner type the signed-in partner's prices follow: their oldest active partner record's, as
 * the server prices their websites (routes/websites.ts); standard without one, or when unknown.
 */
export async function fetchMyPartnerType(signal?: AbortSignal): Promise<PartnerType> {
  const [oldest] = await myPartners({ status: 'active', sortBy: 'createdAt', sortOrder: 'asc', limit: 1 }, signal);
  return oldest?.type ?? DEFAULT_PARTNER_TYPE;
}
