import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { Pagination as PaginationData } from '../contract/envelope';
import styles from './pagination.module.css';

/** The pages to offer: the first, the last, and two either side of the current one; null marks a gap. */
export function pageNumbers(current: number, total: number): (number | null)[] {
  const pages: (number | null)[] = [];
  for (let page = 1; page <= total; page++) {
    const near = Math.abs(page - current) <= 1 || page === 1 || page === total;
    if (near) pages.push(page);
    else if (pages.at(-1) !== null) pages.push(null);
  }
  return pages;
}

interface PaginationProps {
  pagination: PaginationData;
  onPage: (page: number) => void;
  disabled?: boolean;
}

/** "Showing x–y of N", previous / next and the page numbers (on phones: previous / next and "page x of y"). */
export function Pagination({ pagination, onPage, disabled = false }: PaginationProps) {
  const { t } = useLingui();
  const { currentPage, totalPages, totalItems, itemsPerPage } = pagination;
  // An empty list says so itself; "0–0 of 0" would only repeat it.
  if (totalItems === 0) return null;
  const first = (currentPage - 1) * itemsPerPage + 1;
  const last = Math.min(totalItems, currentPage * itemsPerPage);

  return (
    <nav className={styles.pagination} aria-label={t`Pagination`}>
      <p className={styles.summary}>
        <Trans>
          Showing {first}–{last} of {totalItems}
        </Trans>
      </p>
      {totalPages > 1 && (
        <div className={styles.pages}>
          <button
            type="button"
            className={styles.page}
            aria-label={t`Previous page`}
            disabled={disabled || currentPage <= 1}
            onClick={() => onPage(currentPage - 1)}
          >
            <ChevronLeft aria-hidden size={20} />
          </button>
          <span className={styles.phoneOnly}>
            <Trans>
              Page {currentPage} of {totalPages}
            </Trans>
          </span>
          {pageNumbers(currentPage, totalPages).map((page, index) =>
            page === null ? (
              <span key={`gap-${index}`} className={`${styles.gap} ${styles.wideOnly}`} aria-hidden>
                …
              </span>
            ) : (
              <button
                key={page}
                type="button"
                className={`${styles.page} ${styles.wideOnly}`}
                aria-label={t`Page ${page}`}
                aria-current={page === currentPage ? 'page' : undefined}
                disabled={disabled}
                onClick={() => page !== currentPage && onPage(page)}
              >
                {page}
              </button>
            ),
          )}
          <button
            type="button"
            className={styles.page}
            aria-label={t`Next page`}
            disabled={disabled || currentPage >= totalPages}
            onClick={() => onPage(currentPage + 1)}
          >
            <ChevronRight aria-hidden size={20} />
          </button>
        </div>
      )}
    </nav>
  );
}
