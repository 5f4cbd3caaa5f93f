import { z } from 'zod/mini';
import { messages } from '../contract/messages';
import { requestData } from './request';

const MyPartnersSchema = z.array(z.object({ _id: z.string() }));

/** The ids of the signed-in partner's own partner records; any failure yields none (spec §8). */
export async function fetchMyPartnerIds(signal?: AbortSignal): Promise<string[]> {
  try {
    const partners = await requestData('/api/partners/my-partners', MyPartnersSchema, { signal, fallback: messages.requestFailed });
    return partners.map((partner) => partner._id);
  } catch {
    return [];
  }
}
