import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import type { ReactNode } from 'react';
import { AuthProvider } from '../machines/auth';
import { BrandingProvider } from '../api/branding';

/** Everything a screen expects around it; tests render screens inside the same stack. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <I18nProvider i18n={i18n}>
      <BrandingProvider>
        <AuthProvider>{children}</AuthProvider>
      </BrandingProvider>
    </I18nProvider>
  );
}
