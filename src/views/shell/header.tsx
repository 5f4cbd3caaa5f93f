import { useLingui } from '@lingui/react/macro';
import { Menu, Search } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'wouter';
import { useBranding } from '../../api/branding';
import { homePath, useSession } from '../../api/session';
import { LanguageSwitcher } from '../../components/language-switcher';
import { SearchBox } from '../../components/search-box';
import { useDismiss } from '../../components/use-dismiss';
import { FilterPanel } from './filter-panel';
import styles from './header.module.css';
import { useRegisteredListControls, type ListControls } from './list-controls';
import { SyncStatus } from './sync-status';
import { UserMenu } from './user-menu';

type Popup = 'search' | 'filters' | 'sync' | 'user' | null;

interface HeaderProps {
  sidebarOpen: boolean;
  onMenu: () => void;
}

function searchLabels(controls: ListControls | null): string[] {
  return controls?.filters.flatMap((filter) => filter.options.map((option) => option.label)) ?? [];
}

export function Header({ sidebarOpen, onMenu }: HeaderProps) {
  const { t } = useLingui();
  const branding = useBranding();
  const { user } = useSession();
  const controls = useRegisteredListControls();
  // One popup at a time (spec §2): opening one closes the others.
  const [popup, setPopup] = useState<Popup>(null);
  const toggle = (which: Exclude<Popup, null>) => (open: boolean) => setPopup(open ? which : null);
  const mobileSearch = useRef<HTMLDivElement>(null);
  useDismiss(mobileSearch, popup === 'search', () => setPopup(null));

  const search = (autoFocus: boolean) => (
    <SearchBox
      label={t`Search`}
      value={controls?.search ?? ''}
      onChange={(value) => controls?.onSearch(value)}
      labels={searchLabels(controls)}
      disabled={!controls}
      autoFocus={autoFocus}
    />
  );

  return (
    <header className={styles.header}>
      <button
        type="button"
        className={`${styles.iconButton} ${styles.mobileOnly}`}
        aria-label={t`Menu`}
        aria-expanded={sidebarOpen}
        aria-controls="sidebar"
        onClick={onMenu}
      >
        <Menu aria-hidden size={22} />
      </button>
      <Link href={homePath(user)} className={`${styles.brand} ${styles.mobileOnly}`}>
        {branding?.cmsLogoUrl ? (
          <img className={styles.brandLogo} src={branding.cmsLogoUrl} alt={branding.cmsName} />
        ) : (
          <span className={styles.brandName}>{branding?.cmsName}</span>
        )}
      </Link>
      <div className={`${styles.desktopSearch} ${styles.desktopOnly}`}>{search(false)}</div>
      <div className={styles.actions}>
        <div ref={mobileSearch} className={styles.mobileOnly}>
          <button
            type="button"
            className={styles.iconButton}
            aria-label={t`Search`}
            aria-expanded={popup === 'search'}
            aria-controls="mobile-search"
            onClick={() => setPopup(popup === 'search' ? null : 'search')}
          >
            <Search aria-hidden size={20} />
          </button>
          <div id="mobile-search" className={styles.mobileSearch} hidden={popup !== 'search'}>
            {popup === 'search' && search(true)}
          </div>
        </div>
        <FilterPanel controls={controls} open={popup === 'filters'} onOpenChange={toggle('filters')} />
        <SyncStatus open={popup === 'sync'} onOpenChange={toggle('sync')} />
        <LanguageSwitcher />
        <UserMenu open={popup === 'user'} onOpenChange={toggle('user')} />
      </div>
    </header>
  );
}
