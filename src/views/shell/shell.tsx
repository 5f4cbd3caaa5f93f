import { Trans } from '@lingui/react/macro';
import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { Footer } from './footer';
import { Header } from './header';
import { ListControlsProvider } from './list-controls';
import styles from './shell.module.css';
import { Sidebar } from './sidebar';

// Matches the CSS breakpoint at which the sidebar stops sliding in.
const DESKTOP = '(min-width: 768px)';

/** The slide-in sidebar of phones: locks page scroll while open; Escape, navigation and a wider window close it. */
function useMobileSidebar() {
  const [path] = useLocation();
  // Open only on the page where it was opened: following a link closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === path;
  const setOpen = (next: boolean) => setOpenOn(next ? path : null);

  useEffect(() => {
    if (!open) return;
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpenOn(null);
    };
    const desktop = window.matchMedia(DESKTOP);
    const onResize = () => desktop.matches && setOpenOn(null);
    document.addEventListener('keydown', onKeyDown);
    desktop.addEventListener('change', onResize);
    return () => {
      document.body.style.overflow = previous;
      document.removeEventListener('keydown', onKeyDown);
      desktop.removeEventListener('change', onResize);
    };
  }, [open]);

  return [open, setOpen] as const;
}

/**
 * A phone's on-screen keyboard shrinks the visible part of the page under the field being typed
 * in: the field is scrolled back into what is left (below the sticky header, CSS scroll-margin),
 * so every form stays usable with the keyboard up.
 */
function useKeyboardAwareFields() {
  useEffect(() => {
    const viewport = window.visualViewport;
    if (!viewport) return;
    const keepInView = () => {
      const field = document.activeElement;
      if (field instanceof HTMLElement && field.matches('input, textarea, select, [contenteditable]')) field.scrollIntoView({ block: 'nearest' });
    };
    viewport.addEventListener('resize', keepInView);
    return () => viewport.removeEventListener('resize', keepInView);
  }, []);
}

/**
 * What a verified user sees around every page (spec §2): sidebar, header with search and filters, footer.
 * `navigating`: the next screen is still loading. The one on view stays there until it is in, inert:
 * what is typed into a screen that is leaving would be lost with it.
 */
export function Shell({ children, navigating = false }: { children: ReactNode; navigating?: boolean }) {
  const [sidebarOpen, setSidebarOpen] = useMobileSidebar();
  useKeyboardAwareFields();

  return (
    <ListControlsProvider>
      <div className={styles.shell}>
        <a className={styles.skipLink} href="#main">
          <Trans>Skip to content</Trans>
        </a>
        <Sidebar open={sidebarOpen} onClose={() => setSidebarOpen(false)} />
        {sidebarOpen && <div className={styles.overlay} data-testid="sidebar-overlay" onClick={() => setSidebarOpen(false)} />}
        <div className={styles.column}>
          <Header sidebarOpen={sidebarOpen} onMenu={() => setSidebarOpen(true)} />
          <main id="main" className={styles.main} tabIndex={-1} aria-busy={navigating || undefined} inert={navigating || undefined}>
            {children}
          </main>
          <Footer />
        </div>
      </div>
    </ListControlsProvider>
  );
}
