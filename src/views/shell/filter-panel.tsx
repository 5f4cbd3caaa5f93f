import { Trans, useLingui } from '@lingui/react/macro';
import { SlidersHorizontal, X } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { SearchableSelect } from '../../components/searchable-select';
import selectStyles from '../../components/searchable-select.module.css';
import { useDismiss } from '../../components/use-dismiss';
import styles from './header.module.css';
import type { ListControls, ListFilter } from './list-controls';

interface FilterPanelProps {
  controls: ListControls | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The header's filter button and panel: one searchable dropdown per filter of the screen (spec §2). */
export function FilterPanel({ controls, open, onOpenChange }: FilterPanelProps) {
  const { t } = useLingui();
  const root = useRef<HTMLDivElement>(null);
  const [openFilter, setOpenFilter] = useState<string | null>(null);
  const filters = controls?.filters ?? [];
  const anySet = filters.some((filter) => controls?.values[filter.key]);

  function close() {
    setOpenFilter(null);
    onOpenChange(false);
  }
  useDismiss(root, open, close);

  return (
    <div ref={root} className={styles.popupAnchor}>
      <button
        type="button"
        className={styles.iconButton}
        aria-label={anySet ? t`Filters (active)` : t`Filters`}
        aria-expanded={open}
        aria-controls="filter-panel"
        onClick={() => (open ? close() : onOpenChange(true))}
      >
        <SlidersHorizontal aria-hidden size={20} />
        {anySet && <span className={styles.marker} />}
      </button>
      <section id="filter-panel" className={styles.panel} hidden={!open} aria-label={t`Filters`}>
        <h2 className={styles.panelTitle}>
          <Trans>Filters</Trans>
        </h2>
        {controls && filters.length > 0 ? (
          filters.map((filter) =>
            filter.day ? (
              <DayFilter key={filter.key} filter={filter} value={controls.values[filter.key] ?? ''} onChange={(value) => controls.onFilter(filter.key, value)} />
            ) : (
            <SearchableSelect
              key={filter.key}
              label={filter.label}
              options={filter.options}
              onSearch={filter.onSearch}
              value={controls.values[filter.key] ?? null}
              onChange={(value) => controls.onFilter(filter.key, value)}
              open={openFilter === filter.key}
              onOpenChange={(next) => setOpenFilter(next ? filter.key : null)}
            />
            ),
          )
        ) : (
          <p className={styles.muted}>
            <Trans>No filters available</Trans>
          </p>
        )}
      </section>
    </div>
  );
}

/** A day of a range (from, to): the device's own date picker, and a button that clears it. */
function DayFilter({ filter, value, onChange }: { filter: ListFilter; value: string; onChange: (value: string | null) => void }) {
  const { t } = useLingui();
  const id = useId();
  const { label } = filter;
  return (
    <div className={selectStyles.select}>
      <label htmlFor={id} className={selectStyles.label}>
        {label}
      </label>
      <div className={selectStyles.row}>
        <input id={id} type="date" className={selectStyles.trigger} value={value} onChange={(event) => onChange(event.target.value || null)} />
        {value && (
          <button type="button" className={selectStyles.clear} aria-label={t`Clear ${label}`} onClick={() => onChange(null)}>
            <X aria-hidden size={18} />
          </button>
        )}
      </div>
    </div>
  );
}
