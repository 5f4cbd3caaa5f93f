import { useEffect, useState } from 'react';
import { z } from 'zod';
import { request } from '../../api/request';
import type { SessionUser } from '../../app/session';

const MyPartnersSchema = z.array(z.object({ _id: z.string() }));

/** The ids of the signed-in partner's own partner records; any failure yields none (spec §8). */
async function fetchMyPartnerIds(signal?: AbortSignal): Promise<string[]> {
  try {
    const { data } = await request<unknown>('/api/partners/my-partners', { signal });
    return MyPartnersSchema.parse(data).map((partner) => partner._id);
  } catch {
    return [];
  }
}

/** Loaded for partners only: nobody else's sidebar depends on them. */
export function usePartnerIds(user: SessionUser | null): string[] {
  // Keyed by the user they were loaded for, so another user never sees them.
  const [loaded, setLoaded] = useState<{ userId: string; ids: string[] } | null>(null);
  const partnerId = user?.type === 'partner' ? user.id : null;

  useEffect(() => {
    if (!partnerId) return;
    const controller = new AbortController();
    void fetchMyPartnerIds(controller.signal).then((ids) => {
      if (!controller.signal.aborted) setLoaded({ userId: partnerId, ids });
    });
    return () => controller.abort();
  }, [partnerId]);

  return loaded && loaded.userId === partnerId ? loaded.ids : [];
}
