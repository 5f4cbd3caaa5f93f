import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { fetchBranding } from '../api/white-label';
import type { WhiteLabelConfig } from '../contract/branding';

// The document title is the route table's ("Page · Brand"); this only provides the brand.
/** null while loading: showing the default name first would flash the wrong brand on white-labelled installs. */
const BrandingContext = createContext<WhiteLabelConfig | null>(null);

export function BrandingProvider({ children }: { children: ReactNode }) {
  const [branding, setBranding] = useState<WhiteLabelConfig | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    void fetchBranding(controller.signal).then((loaded) => {
      if (controller.signal.aborted) return;
      setBranding(loaded);
    });
    return () => controller.abort();
  }, []);

  return <BrandingContext value={branding}>{children}</BrandingContext>;
}

export function useBranding(): WhiteLabelConfig | null {
  return useContext(BrandingContext);
}
