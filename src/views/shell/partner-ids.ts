import { useEffect, useState } from 'react';
import { fetchMyPartnerIds } from '../../api/partners';
import type { SessionUser } from '../../api/session';

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
