import { useLingui } from '@lingui/react/macro';
import {
  FileText,
  Globe,
  Handshake,
  History,
  Languages,
  LayoutDashboard,
  SearchCheck,
  Settings,
  ShieldCheck,
  Trash2,
  Users,
  UsersRound,
  X,
  type LucideIcon,
} from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'wouter';
import { useBranding } from '../../api/branding';
import { homePath, useSession } from '../../api/session';
import { useFreshRole } from './fresh-role';
import { activeHref, navLinks, type NavIcon } from './nav-links';
import { usePartnerIds } from './partner-ids';
import styles from './sidebar.module.css';

const icons: Record<NavIcon, LucideIcon> = {
  dashboard: LayoutDashboard,
  users: Users,
  partners: Handshake,
  websites: Globe,
  languages: Languages,
  admins: ShieldCheck,
  recycleBin: Trash2,
  activity: History,
  cms: FileText,
  seo: SearchCheck,
  team: UsersRound,
  settings: Settings,
};

interface SidebarProps {
  /** Only matters on phones, where the sidebar slides in over the page. */
  open: boolean;
  onClose: () => void;
}

export function Sidebar({ open, onClose }: SidebarProps) {
  const { i18n, t } = useLingui();
  const branding = useBranding();
  const { user } = useSession();
  const [path] = useLocation();
  const partnerIds = usePartnerIds(user);
  useFreshRole(user);
  const links = user ? navLinks(user, partnerIds) : [];
  const active = activeHref(links, path);
  const closeButton = useRef<HTMLButtonElement>(null);

  // Focus follows the slide-in, so keyboard and screen-reader users land in the menu they opened.
  useEffect(() => {
    if (open) closeButton.current?.focus();
  }, [open]);

  return (
    <aside id="sidebar" className={`${styles.sidebar} ${open ? styles.open : ''}`} aria-label={t`Sidebar`}>
      <div className={styles.top}>
        <Link href={homePath(user)} className={styles.brand}>
          {branding?.cmsLogoUrl && <img className={styles.logo} src={branding.cmsLogoUrl} alt="" />}
          <span className={styles.name}>{branding?.cmsName}</span>
        </Link>
        <button ref={closeButton} type="button" className={styles.close} aria-label={t`Close menu`} onClick={onClose}>
          <X aria-hidden size={22} />
        </button>
      </div>
      <nav aria-label={t`Main navigation`}>
        <ul className={styles.links}>
          {links.map((entry) => {
            const Icon = icons[entry.icon];
            return (
              <li key={entry.href}>
                <Link href={entry.href} className={styles.link} aria-current={entry.href === active ? 'page' : undefined}>
                  <Icon aria-hidden size={20} />
                  {i18n._(entry.label)}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
    </aside>
  );
}
