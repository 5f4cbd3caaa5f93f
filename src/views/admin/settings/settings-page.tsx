import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { refreshBranding, useBranding } from '../../../api/branding';
import type { PageProps } from '../../page';
import { ImageUpload } from '../../../components/image-upload';
import { settings } from '../../../contract/resources/settings';
import { resourceStore } from '../../../db/device-store';
import { ResourceSingletonForm } from '../../resource/resource-form';
import styles from '../../resource/resource.module.css';
import type { ResourceScreen } from '../../resource/screen';
import { ResourceStoreProvider } from '../../resource/store-context';
import { interfaceLanguageChoices } from '../choices';
import { SettingsTabs } from './settings-tabs';

/** The installation's one settings record (contract/resources/settings.ts) as a form. */
export const settingsScreen: ResourceScreen = {
  resource: settings,
  columns: [],
  fields: [
    {
      name: 'cmsName',
      label: msg`CMS name`,
      kind: 'text',
      hint: msg`Shown in the header, the sidebar, the footer and the browser tab. Empty: the product’s own name, or “CMS” once a logo is set.`,
    },
    {
      name: 'helpUrl',
      label: msg`Help Center link`,
      kind: 'url',
      hint: msg`The footer’s Help Center: a web address (https://…) or mailto:. Empty: the address set when the app was built, else the Support link.`,
    },
    {
      name: 'supportUrl',
      label: msg`Support link`,
      kind: 'url',
      hint: msg`The footer’s Support: a web address or mailto:. Empty: the address set when the app was built, else the Help Center link.`,
    },
    {
      name: 'defaultLanguage',
      label: msg`Default language`,
      kind: 'choice',
      choices: interfaceLanguageChoices,
    },
    {
      name: 'mailFrom',
      label: msg`Sender of sign-in and password mails`,
      kind: 'text',
      hint: msg`A name and address such as Agency <mail@agency.example>, or an address. Empty: the server’s MAIL_FROM.`,
    },
  ],
};

/** Saved on the server (not only queued here): the brand is read again. */
const brandSaved = (row: unknown) => {
  if (row) refreshBranding();
};

/**
 * /settings (admins): the logo, then the settings form on the generic editor, so it works offline
 * and resolves conflicts like every other form. A saved form or a new logo re-brands the shell at once.
 */
export function SettingsPage({ title }: PageProps) {
  const { t, i18n } = useLingui();
  const titleId = useId();
  const logo = useBranding()?.cmsLogoUrl ?? null;

  return (
    <ResourceStoreProvider store={resourceStore}>
      <section className={styles.page} aria-labelledby={titleId}>
        <SettingsTabs />
        <h1 id={titleId} className={styles.title}>
          {i18n._(title)}
        </h1>
        <div className={styles.card}>
          <ImageUpload label={t`Logo`} uploadPath={settings.image!.path} imageUrl={logo} resource={settings} onUploaded={refreshBranding} />
        </div>
        <div className={styles.card}>
          <ResourceSingletonForm screen={settingsScreen} onSaved={brandSaved} />
        </div>
      </section>
    </ResourceStoreProvider>
  );
}
