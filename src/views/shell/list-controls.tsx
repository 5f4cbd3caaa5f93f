import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { SelectOption } from '../../components/searchable-select';

export interface ListFilter {
  key: string;
  label: string;
  options: readonly SelectOption[];
  /** Asks the server for the options matching what was typed (more than a page may exist). */
  onSearch?: (text: string) => void;
  /** A day instead of options: its value is the day (`2026-11-20`). */
  day?: boolean;
}

/** What a list screen lends the header: its search text and its filters, both owned by the screen. */
export interface ListControls {
  search: string;
  onSearch: (search: string) => void;
  filters: readonly ListFilter[];
  values: Readonly<Record<string, string | undefined>>;
  onFilter: (key: string, value: string | null) => void;
}

// Two contexts: a screen only needs the stable setter, so registering never re-renders the screen itself.
const RegisterContext = createContext<(controls: ListControls | null) => void>(() => {});
const ControlsContext = createContext<ListControls | null>(null);

export function ListControlsProvider({ children }: { children: ReactNode }) {
  const [controls, setControls] = useState<ListControls | null>(null);
  return (
    <RegisterContext value={setControls}>
      <ControlsContext value={controls}>{children}</ControlsContext>
    </RegisterContext>
  );
}

/** Called by a list screen on every render; the header's search box and filter panel then drive it. */
export function useListControls(controls: ListControls): void {
  const register = useContext(RegisterContext);
  useEffect(() => register(controls), [register, controls]);
  useEffect(() => () => register(null), [register]);
}

/** The controls of the screen on show, or null when it has none. */
export function useRegisteredListControls(): ListControls | null {
  return useContext(ControlsContext);
}
