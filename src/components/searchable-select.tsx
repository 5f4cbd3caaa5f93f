import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronDown, X } from 'lucide-react';
import { useId, useState } from 'react';
import styles from './searchable-select.module.css';

export interface SelectOption {
  value: string;
  label: string;
}

interface SearchableSelectProps {
  label: string;
  options: readonly SelectOption[];
  value: string | null;
  onChange: (value: string | null) => void;
  /** Controlled, so a panel can keep one dropdown open at a time (spec §2). */
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Told what is typed, for options that live on a server; they are still matched here as they arrive. */
  onSearch?: (text: string) => void;
  /** What shows while nothing is chosen: "All" in a filter, "Choose…" in a form. */
  empty?: 'all' | 'choose';
}

/** A dropdown whose options can be searched, with a clear button once a value is chosen. */
export function SearchableSelect({ label, options, value, onChange, open, onOpenChange, onSearch, empty = 'all' }: SearchableSelectProps) {
  const { t } = useLingui();
  const [query, setQuery] = useState('');
  const id = useId();
  const selected = options.find((option) => option.value === value);
  const needle = query.trim().toLowerCase();
  const shown = options.filter((option) => option.label.toLowerCase().includes(needle));

  function type(text: string) {
    setQuery(text);
    onSearch?.(text);
  }

  function choose(next: string | null) {
    onChange(next);
    onOpenChange(false);
    if (query) type('');
  }

  return (
    <div className={styles.select}>
      <span id={`${id}-label`} className={styles.label}>
        {label}
      </span>
      <div className={styles.row}>
        <button
          type="button"
          className={styles.trigger}
          aria-labelledby={`${id}-label ${id}-value`}
          aria-expanded={open}
          aria-controls={`${id}-popup`}
          onClick={() => onOpenChange(!open)}
        >
          <span id={`${id}-value`} className={styles.value}>
            {selected ? selected.label : empty === 'all' ? <Trans>All</Trans> : value ? value : <Trans>Choose…</Trans>}
          </span>
          <ChevronDown aria-hidden size={18} />
        </button>
        {selected && (
          <button type="button" className={styles.clear} aria-label={t`Clear ${label}`} onClick={() => choose(null)}>
            <X aria-hidden size={18} />
          </button>
        )}
      </div>
      <div id={`${id}-popup`} className={styles.popup} hidden={!open}>
        {open && (
          <>
            <input
              type="search"
              className={styles.search}
              aria-label={t`Search ${label}`}
              placeholder={t`Search…`}
              value={query}
              onChange={(event) => type(event.target.value)}
            />
            {shown.length > 0 ? (
              <ul className={styles.options}>
                {shown.map((option) => (
                  <li key={option.value}>
                    <button
                      type="button"
                      className={styles.option}
                      aria-pressed={option.value === value}
                      onClick={() => choose(option.value)}
                    >
                      {option.label}
                    </button>
                  </li>
                ))}
              </ul>
            ) : (
              // The spec words it differently for the desktop dropdown and the mobile panel.
              <p className={styles.empty}>
                <span className={styles.desktopOnly}>
                  <Trans>No options available</Trans>
                </span>
                <span className={styles.mobileOnly}>
                  <Trans>No options found</Trans>
                </span>
              </p>
            )}
          </>
        )}
      </div>
    </div>
  );
}
