import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { LogOut, UserRound } from 'lucide-react';
import { useRef } from 'react';
import { Link, useLocation } from 'wouter';
import { useAuth } from '../../machines/auth';
import { useConfirm } from '../../machines/feedback';
import { useSession } from '../../api/session';
import { countUnsynced } from '../../db/outbox';
import { useDismiss } from '../../components/use-dismiss';
import styles from './header.module.css';
import { initials } from './initials';

interface UserMenuProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function UserMenu({ open, onOpenChange }: UserMenuProps) {
  const { t } = useLingui();
  const { user } = useSession();
  const { logout } = useAuth();
  const { confirm } = useConfirm();
  const [, navigate] = useLocation();
  const root = useRef<HTMLDivElement>(null);
  useDismiss(root, open, () => onOpenChange(false));
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ') || user?.username;

  /** DESIGN §6: signing out empties Dexie, so changes the server has not got yet would be lost. */
  async function mayLoseChanges(): Promise<boolean> {
    const unsynced = await countUnsynced().catch(() => 0);
    if (unsynced === 0) return true;
    return confirm({
      type: 'warning',
      title: t`Changes not sent`,
      message: plural(unsynced, {
        one: 'You have # change that is not on the server yet. If you sign out now, it is lost.',
        other: 'You have # changes that are not on the server yet. If you sign out now, they are lost.',
      }),
      confirmText: t`Sign out anyway`,
      cancelText: t`Cancel`,
    });
  }

  async function signOut() {
    onOpenChange(false);
    if (!(await mayLoseChanges())) return;
    // Spec §2: to /login even when the server call fails; logout() clears the session either way.
    await logout().catch(() => {});
    navigate('/login', { replace: true });
  }

  return (
    <div ref={root} className={styles.popupAnchor}>
      <button
        type="button"
        className={styles.avatarButton}
        aria-label={t`Account menu`}
        aria-expanded={open}
        aria-controls="user-menu"
        onClick={() => onOpenChange(!open)}
      >
        <span className={styles.avatar} aria-hidden>
          {initials(user)}
        </span>
      </button>
      <div id="user-menu" className={styles.panel} hidden={!open}>
        {user && (
          <p className={styles.identity}>
            <span className={styles.identityName}>{name}</span>
            <span className={styles.muted}>{user.email}</span>
          </p>
        )}
        <Link href="/profile" className={styles.menuItem} onClick={() => onOpenChange(false)}>
          <UserRound aria-hidden size={18} />
          <Trans>Profile</Trans>
        </Link>
        <button type="button" className={styles.menuItem} onClick={() => void signOut()}>
          <LogOut aria-hidden size={18} />
          <Trans>Logout</Trans>
        </button>
      </div>
    </div>
  );
}
