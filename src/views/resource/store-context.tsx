import { createContext, useContext, type ReactNode } from 'react';
import type { ResourceStore } from '../../db/resource-store';

const StoreContext = createContext<ResourceStore | null>(null);

/** The data layer the resource screens below use; tests hand in a fake one. */
export function ResourceStoreProvider({ store, children }: { store: ResourceStore; children: ReactNode }) {
  return <StoreContext value={store}>{children}</StoreContext>;
}

export function useResourceStore(): ResourceStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('A resource screen needs a ResourceStoreProvider above it.');
  return store;
}
