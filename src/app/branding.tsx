import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { readStored } from '../api/storage';
import { fetchBranding } from '../api/white-label';
import { DEFAULT_BRANDING, WhiteLabelConfigSchema, type WhiteLabelConfig } from '../contract/branding';

// The document title is the route table's ("Page · Brand"); this only provides the brand.
/** null while loading: showing the default name first would flash the wrong brand on white-labelled installs. */
const BrandingContext = createContext<WhiteLabelConfig | null>(null);

/** The brand last seen, so an app opened again shows it at once, also offline or on a slow link. */
const BRANDING_KEY = 'branding';

function storedBranding(): WhiteLabelConfig | null {
  try {
    const parsed = WhiteLabelConfigSchema.safeParse(JSON.parse(readStored(BRANDING_KEY) ?? 'null'));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function BrandingProvider({ children }: { children: ReactNode }) {
  const [branding, setBranding] = useState<WhiteLabelConfig | null>(storedBranding);

  useEffect(() => {
    const controller = new AbortController();
    void fetchBranding(controller.signal).then((loaded) => {
      if (controller.signal.aborted) return;
      // Spec §8: a failed load falls back to the default branding without a message; the brand
      // seen last time is the better fallback when there is one (offline, a flaky link).
      setBranding((shown) => loaded ?? shown ?? DEFAULT_BRANDING);
      if (!loaded) return;
      try {
        localStorage.setItem(BRANDING_KEY, JSON.stringify(loaded));
      } catch {
        // Storage full or blocked: the brand is fetched again next time.
      }
    });
    return () => controller.abort();
  }, []);

  return <BrandingContext value={branding}>{children}</BrandingContext>;
}

export function useBranding(): WhiteLabelConfig | null {
  return useContext(BrandingContext);
}
