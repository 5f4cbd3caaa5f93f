import { describe, expect, it } from 'vitest';
import { concerns, type Change } from './live';
import { boundTo } from './resource';
import { gastroItems } from './resources/gastro';
import { pages } from './resources/cms';

const SITE = '0190a1b2-0000-7000-8000-0000000000a1';
const OTHER = '0190a1b2-0000-7000-8000-0000000000b2';
const change = (entries: string[], website: string | null): Change => ({ entries, record: '0190a1b2-0000-7000-8000-0000000000c3', website, action: 'update', version: 2 });

describe('which copy of an entry a change concerns', () => {
  it('a list bound to a website: a change of that entry on that website, not on another, not of another entry', () => {
    const shown = boundTo(pages, { websiteId: SITE });
    expect(concerns(shown, change(['pages'], SITE))).toBe(true);
    expect(concerns(shown, change(['pages'], OTHER))).toBe(false);
    expect(concerns(shown, change(['posts'], SITE))).toBe(false);
  });

  it('a list bound to a parent record (a menu’s dishes): any change of the entry, its website not being in its path', () => {
    const shown = boundTo(gastroItems, { menuId: '0190a1b2-0000-7000-8000-0000000000d4' });
    expect(concerns(shown, change(['gastroItems'], SITE))).toBe(true);
    expect(concerns(shown, change(['gastroMenus'], SITE))).toBe(false);
  });
});
