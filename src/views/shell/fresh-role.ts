import { useEffect } from 'react';
import { fetchProfile } from '../../api/profile';
import { updateStoredUser, type SessionUser } from '../../api/session';

/**
 * A team member's role can change while they are signed in, and the server applies it on their
 * next call (spec §6). The sidebar and the screens read the role from the stored user, so it is
 * read again when the app opens and whenever it comes back into view; a failed read changes nothing.
 * Nobody else's stored user carries anything that others change.
 */
export function useFreshRole(user: SessionUser | null): void {
  const memberId = user?.type === 'teammember' ? user.id : null;

  useEffect(() => {
    if (!memberId) return;
    const controller = new AbortController();
    const refresh = () => {
      if (document.visibilityState !== 'visible') return;
      fetchProfile(controller.signal).then(
        (fresh) => !controller.signal.aborted && fresh.id === memberId && updateStoredUser(fresh),
        () => undefined,
      );
    };
    refresh();
    document.addEventListener('visibilitychange', refresh);
    return () => {
      controller.abort();
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [memberId]);
}
