import { Link, useLocation } from 'wouter';
import styles from './section-tabs.module.css';

export interface SectionTab {
  href: string;
  /** Translated. */
  label: string;
}

interface SectionTabsProps {
  /** Translated: what the strip is called for assistive technology ("Settings section"). */
  label: string;
  tabs: readonly SectionTab[];
}

/**
 * The pages of one section as a strip of links over them (the settings' General and Services).
 * The current one is the last whose path the location is or lies under, so a deeper tab wins
 * over the section's first page.
 */
export function SectionTabs({ label, tabs }: SectionTabsProps) {
  const [path] = useLocation();
  const current = tabs.findLast((tab) => path === tab.href || path.startsWith(`${tab.href}/`))?.href;
  return (
    <nav className={styles.tabs} aria-label={label}>
      {tabs.map((tab) => (
        <Link key={tab.href} href={tab.href} className={styles.tab} aria-current={tab.href === current ? 'page' : undefined}>
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
