import { msg } from '@lingui/core/macro';
import { CMS, screenRoutes } from '../cms-modules';
import { menuItems, menus, pages } from '../../contract/resources/cms';
import { screenPages } from '../resource/screen-pages';
import type { ResourceScreen } from '../resource/screen';
import { CmsBackLink } from './cms-back-link';

// Spec §2 /cms/{id}/menu, /menu/new, /menu/edit/{menuId}; spec §7 Menus. A menu's items are listed
// under its form, in the order a person sets (ADR 012).

export const menusScreen = {
  resource: menus,
  columns: [
    { key: 'name', label: msg`Name`, sortable: true },
    { key: 'location', label: msg`Location` },
    { key: 'updatedAt', label: msg`Updated`, format: 'date', sortable: true },
  ],
  fields: [
    { name: 'name', label: msg`Name`, kind: 'text' },
    { name: 'location', label: msg`Location`, kind: 'text', hint: msg`Where the website shows it, such as header or footer` },
  ],
  routes: screenRoutes(CMS.menus, { list: 'list', create: 'new', edit: 'edit' }),
} satisfies ResourceScreen;

const pageSource = { resource: pages };
const itemSource = { resource: menuItems };

export const menuItemsScreen = {
  resource: menuItems,
  columns: [
    { key: 'label', label: msg`Label` },
    { key: 'pageId', label: msg`Page`, format: 'lookup', source: pageSource },
    { key: 'url', label: msg`Address` },
    { key: 'parentId', label: msg`Under`, format: 'lookup', source: itemSource },
  ],
  fields: [
    { name: 'label', label: msg`Label`, kind: 'text' },
    { name: 'pageId', label: msg`Page`, kind: 'select', source: pageSource, optional: true },
    { name: 'url', label: msg`Or an address`, kind: 'text', hint: msg`https://…, mailto:…, or a path on the website such as /menu` },
    { name: 'parentId', label: msg`Under item`, kind: 'select', source: itemSource, optional: true },
    { name: 'openInNewTab', label: msg`Open in a new tab`, kind: 'checkbox' },
  ],
} satisfies ResourceScreen;

const menuPages = screenPages(menusScreen, <CmsBackLink />, { screen: menuItemsScreen, title: msg`Menu items` });

export const MenusPage = menuPages.List;
export const MenuNewPage = menuPages.New;
export const MenuEditPage = menuPages.Edit;
