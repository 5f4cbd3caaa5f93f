import { describe, expect, it } from 'vitest';
import { MODULES } from '../contract/modules';
import { isResource } from '../contract/resource';
import { CMS, CMS_SECTIONS } from './cms-modules';
import { SCREEN_LOADERS } from './shell/screen-loaders';

const resourcesOf = (loaded: Readonly<Record<string, unknown>>) => Object.values(loaded).filter(isResource);

// Each loads every screens file of the CMS: a cold transform of them all takes seconds.
const LOADS_SCREENS = 60_000;

describe('the CMS made from its modules’ declarations', () => {
  it('loads a page of the module’s screens file for every route it declares', async () => {
    for (const section of CMS_SECTIONS) {
      for (const route of Object.values(section.routes)) {
        const page = await route.load();
        expect(typeof page, route.path).toBe('function');
        expect(Object.values(await section.screens()), route.path).toContain(page);
      }
    }
  }, LOADS_SCREENS);

  it('names as a module’s entries exactly those of its contract file that say they are the module’s', async () => {
    for (const module of MODULES) {
      const files = new Set(MODULES.filter((other) => other.key === module.key).map((other) => other.contract));
      const declared = await Promise.all([...files].map((file) => import(`../contract/resources/${file}.ts`) as Promise<Record<string, unknown>>));
      const own = declared.flatMap(resourcesOf).filter((resource) => 'module' in resource && resource.module === module.key);
      expect(own.map((resource) => resource.name).toSorted(), module.key).toEqual([...module.entries].toSorted());
    }
  });

  it('counts on each dashboard card the entry it names', async () => {
    for (const module of MODULES) {
      const card = CMS[module.key].card;
      if (!module.card) {
        expect(card).toBeUndefined();
        continue;
      }
      expect((await card!.resource()).name).toBe(module.card.entry);
    }
  });

  it('finds the screens that describe a change of each entry, from the part that names it', async () => {
    for (const section of CMS_SECTIONS) {
      for (const name of section.entries) {
        const screens = await SCREEN_LOADERS[name]!();
        // The media library's records are changed on its own page, not in a form.
        if (name !== 'media') expect(screens.length, name).toBeGreaterThan(0);
        for (const screen of screens) expect(screen.resource.name).toBe(name);
      }
    }
  }, LOADS_SCREENS);
});
