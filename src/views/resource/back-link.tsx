import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import styles from './resource.module.css';

/** "← Users": where a record's page, a form or a child list leads back to. */
export function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className={styles.back}>
      <ArrowLeft aria-hidden size={18} />
      {children}
    </Link>
  );
}
