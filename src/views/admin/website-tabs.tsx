import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { SectionTabs } from '../../components/section-tabs';

/** The admin's website section (spec §2 routes under /websites): the websites and the catalogs they are described with. */
const TABS: readonly { href: string; label: MessageDescriptor }[] = [
  { href: '/websites', label: msg`Websites` },
  { href: '/websites/categories', label: msg`Categories` },
  { href: '/websites/subcategories', label: msg`Subcategories` },
  { href: '/websites/types', label: msg`Website types` },
  { href: '/websites/technologies', label: msg`Technologies` },
  { href: '/websites/hosting', label: msg`Hosting` },
];

/** A category's subcategories belong to the categories tab (the deepest matching tab wins). */
export function WebsiteTabs() {
  const { t, i18n } = useLingui();
  return <SectionTabs label={t`Website section`} tabs={TABS.map((tab) => ({ href: tab.href, label: i18n._(tab.label) }))} />;
}
