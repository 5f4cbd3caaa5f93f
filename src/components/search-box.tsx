import { Search } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Highlight } from './highlight';
import styles from './search-box.module.css';
import { useDismiss } from './use-dismiss';

const MAX_SUGGESTIONS = 10;

/** Up to 10 distinct labels containing the typed text, in their given order (spec §2). */
export function suggest(labels: readonly string[], query: string): string[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  return [...new Set(labels)].filter((label) => label.toLowerCase().includes(needle)).slice(0, MAX_SUGGESTIONS);
}

interface SearchBoxProps {
  value: string;
  onChange: (value: string) => void;
  /** What the box suggests from: the labels of the screen's filter options. */
  labels: readonly string[];
  label: string;
  disabled?: boolean;
  autoFocus?: boolean;
}

/** A search input with a suggestion list (ARIA combobox); picking a suggestion fills the search. */
export function SearchBox({ value, onChange, labels, label, disabled, autoFocus }: SearchBoxProps) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const root = useRef<HTMLDivElement>(null);
  const listId = useId();
  const matches = open ? suggest(labels, value) : [];
  const expanded = matches.length > 0;
  useDismiss(root, expanded, () => setOpen(false));

  function pick(suggestion: string) {
    onChange(suggestion);
    setOpen(false);
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (!expanded) return;
    const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (step) {
      event.preventDefault();
      setActive((index) => (index + step + matches.length) % matches.length);
    } else if (event.key === 'Enter' && matches[active]) {
      event.preventDefault();
      pick(matches[active]);
    }
  }

  return (
    <div ref={root} className={styles.box}>
      <Search className={styles.icon} aria-hidden size={18} />
      <input
        type="search"
        role="combobox"
        className={styles.input}
        aria-label={label}
        placeholder={label}
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        value={value}
        disabled={disabled}
        // The mobile panel opens for typing; focusing it at once is what the tap asked for.
        autoFocus={autoFocus}
        onChange={(event) => {
          onChange(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
      />
      <ul id={listId} role="listbox" aria-label={label} className={styles.list} hidden={!expanded}>
        {matches.map((match, index) => (
          <li
            key={match}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={styles.option}
            // Keeps focus in the input, so the list does not close before the click lands.
            onPointerDown={(event) => event.preventDefault()}
            onClick={() => pick(match)}
          >
            <Highlight text={match} query={value.trim()} />
          </li>
        ))}
      </ul>
    </div>
  );
}
