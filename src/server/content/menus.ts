import { and, eq } from 'drizzle-orm';
import { messages } from '../../contract/messages';
import type { HookContext, ResourceHooks, Row } from '../crud';
import { fieldError } from '../http/errors';
import { menuItems } from '../store/schema';

type Values = Record<string, unknown>;

/** An item leads to a page of the website or to an address: one of them, not both, not neither. */
function checkTarget(values: Values): void {
  const page = values.pageId;
  const url = typeof values.url === 'string' ? values.url : '';
  if ((page == null) === (url === '')) throw fieldError(page == null ? 'body.url' : 'body.pageId', messages.linkTarget);
}

/**
 * An item placed under one of its own sub-items (or itself) would take its branch out of the
 * tree: refused. The composite key already keeps the parent in the same menu.
 */
async function checkNoCycle(row: Row, { tx }: HookContext): Promise<void> {
  if (row.parentId == null) return;
  // A menu holds dozens of items: walking up its tree in memory beats a recursive query.
  const items = await tx.select({ id: menuItems.id, parentId: menuItems.parentId }).from(menuItems).where(and(eq(menuItems.websiteId, row.websiteId as string), eq(menuItems.menuId, row.menuId as string)));
  const parentOf = new Map(items.map((item) => [item.id, item.parentId]));
  for (let at: string | null | undefined = row.parentId as string, steps = 0; at != null && steps <= items.length; at = parentOf.get(at), steps += 1) {
    if (at === row.id) throw fieldError('body.parentId', messages.parentOutsideMenu);
  }
}

/** A menu's items (spec §7 Menus): a target each, nested without loops. */
export const menuItemHooks: ResourceHooks = {
  beforeCreate(values) {
    checkTarget(values);
    return values;
  },
  afterCreate: checkNoCycle,
  async beforeUpdate(changes, { tx, request }) {
    if ('pageId' in changes || 'url' in changes) {
      const id = (request.params as Record<string, string>).itemId!;
      const [stored] = await tx.select({ pageId: menuItems.pageId, url: menuItems.url }).from(menuItems).where(and(eq(menuItems.id, id), eq(menuItems.websiteId, request.website!.id)));
      if (stored) checkTarget({ ...stored, ...changes });
    }
    return changes;
  },
  afterUpdate: checkNoCycle,
};
