import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { SessionUser } from '../../api/session';
import { hasFeature, isAdmin } from '../../contract/permissions';

export type NavIcon = 'dashboard' | 'users' | 'partners' | 'websites' | 'languages' | 'admins' | 'recycleBin' | 'activity' | 'cms' | 'seo' | 'team' | 'settings';

export interface NavLink {
  href: string;
  label: MessageDescriptor;
  icon: NavIcon;
}

const label = {
  dashboard: msg`Dashboard`,
  users: msg`Users`,
  partners: msg`Partners`,
  websites: msg`Websites`,
  languages: msg`Languages`,
  admins: msg`Admins`,
  recycleBin: msg`Recycle bin`,
  activity: msg`Activity`,
  cms: msg`CMS`,
  seo: msg`SEO`,
  team: msg`Team`,
  settings: msg`Settings`,
};

function link(icon: NavIcon, href: string, text: MessageDescriptor = label[icon]): NavLink {
  return { href, label: text, icon };
}

/**
 * The sidebar per role (spec §2). `partnerIds` are the partner records of a partner user: with exactly
 * one, its settings replace the partners list.
 */
export function navLinks(user: SessionUser, partnerIds: readonly string[]): NavLink[] {
  if (isAdmin(user)) {
    return [
      link('dashboard', '/'),
      link('users', '/users'),
      link('partners', '/partners'),
      link('websites', '/websites'),
      link('languages', '/languages'),
      link('admins', '/admins'),
      link('recycleBin', '/recycle-bin'),
      link('activity', '/activity'),
    ];
  }
  const site = user.websiteId;
  if (user.type === 'teammember' && site) {
    return [
      link('dashboard', `/websites/${site}`),
      ...(hasFeature(user, 'cms') ? [link('cms', `/cms/${site}`)] : []),
      ...(hasFeature(user, 'seo') ? [link('seo', `/websites/seo/${site}`)] : []),
      ...(hasFeature(user, 'team') ? [link('team', `/cms/${site}/team`)] : []),
      ...(hasFeature(user, 'settings') ? [link('settings', `/websites/edit/${site}`)] : []),
    ];
  }
  const [onlyPartner] = partnerIds;
  const partners =
    user.type === 'partner' && partnerIds.length === 1 && onlyPartner
      ? link('settings', `/partners/${onlyPartner}`)
      : link('partners', '/user/partners');
  return [link('websites', '/user/websites'), partners];
}

/** The link for the page on show: the longest href that is the path or a parent of it. */
export function activeHref(links: readonly NavLink[], path: string): string | undefined {
  return links
    .map((entry) => entry.href)
    .filter((href) => path === href || (href !== '/' && path.startsWith(`${href}/`)))
    .toSorted((a, b) => b.length - a.length)[0];
}
