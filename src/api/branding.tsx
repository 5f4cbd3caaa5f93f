import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { readStored } from './storage';
import { fetchBranding } from './white-label';
import { DEFAULT_BRANDING, WhiteLabelConfigSchema, type WhiteLabelConfig } from '../contract/branding';
import { applyDefaultLanguage } from './interface-language';

// The document title is the route table's ("Page · Brand"); this only provides the brand.
/** null while loading: showing the default name first would flash the wrong brand on white-labelled installs. */
const BrandingContext = createContext<WhiteLabelConfig | null>(null);

/** The brand last seen, so an app opened again shows it at once, also offline or on a slow link. */
const BRANDING_KEY = 'branding';

/** Asks every mounted BrandingProvider to read the brand again. */
const REFRESH_EVENT = 'sitekeeper:branding-refresh';

/**
 * The brand changed here (the settings were saved, a logo uploaded): header, sidebar, footer and
 * the document title follow without a reload. Other tabs follow through the stored copy.
 */
export function refreshBranding(): void {
  window.dispatchEvent(new Event(REFRESH_EVENT));
}

/** The brand this device saw last (null before the first visit): what the boot shows, and speaks, at once. */
export function storedBranding(): WhiteLabelConfig | null {
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
    let controller = new AbortController();
    const load = () => {
      controller.abort();
      const current = (controller = new AbortController());
      void fetchBranding(current.signal).then((loaded) => {
        if (current.signal.aborted) return;
        // Spec §8: a failed load falls back to the default branding without a message; the brand
        // seen last time is the better fallback when there is one (offline, a flaky link).
        setBranding((shown) => loaded ?? shown ?? DEFAULT_BRANDING);
        if (!loaded) return;
        // Spec §9: a visitor who never chose a language gets the installation's default.
        void applyDefaultLanguage(loaded.defaultLanguage);
        try {
          localStorage.setItem(BRANDING_KEY, JSON.stringify(loaded));
        } catch {
          // Storage full or blocked: the brand is fetched again next time.
        }
      });
    };
    // Another tab changed the brand and stored it.
    const onStorage = (event: StorageEvent) => {
      if (event.key !== BRANDING_KEY) return;
      const stored = storedBranding();
      if (stored) setBranding(stored);
    };
    load();
    window.addEventListener(REFRESH_EVENT, load);
    window.addEventListener('storage', onStorage);
    return () => {
      controller.abort();
      window.removeEventListener(REFRESH_EVENT, load);
      window.removeEventListener('storage', onStorage);
    };
  }, []);

  return <BrandingContext value={branding}>{children}</BrandingContext>;
}

export function useBranding(): WhiteLabelConfig | null {
  return useContext(BrandingContext);
}
