import { describe, expect, it } from 'vitest';
import { findRoute } from './routes';

const cms = (paths: string[]) => paths.map((path) => `/cms/w1${path}`);

// Spec §2, every route, with concrete ids.
const spec: Record<string, string[]> = {
  public: ['/login', '/forgot-password', '/reset-password'],
  pending: ['/verification'],
  admin: [
    '/',
    '/admins',
    '/admins/new',
    '/admins/edit/a1',
    '/admins/a1',
    '/users',
    '/users/new',
    '/users/edit/u1',
    '/users/u1',
    '/partners',
    '/partners/new',
    '/partners/manage/p1',
    '/websites/manage/w1',
    '/websites/hosting',
    '/websites/technologies',
    '/websites/types',
    '/websites/categories',
    '/websites/subcategories',
    '/websites/categories/c1/subcategories',
    '/languages',
    '/languages/new',
    '/languages/edit/l1',
    '/settings',
  ],
  owner: ['/user/partners', '/user/websites'],
  signedIn: [
    '/partners/edit/p1',
    '/partners/p1',
    '/websites',
    '/websites/new',
    '/websites/edit/w1',
    '/websites-form',
    '/profile',
    '/websites/seo/w1',
    '/websites/w1',
    ...cms([
      '',
      '/pages',
      '/pages/new',
      '/pages/edit/m1',
      '/menu',
      '/menu/new',
      '/menu/edit/m1',
      '/posts',
      '/posts/new',
      '/posts/edit/p1',
      '/posts/categories',
      '/hero-slider',
      '/hero-slider/new',
      '/hero-slider/edit/s1',
      '/gallery-slider',
      '/gallery-slider/new',
      '/gallery-slider/edit/s1',
      '/media',
      '/forms',
      '/forms/new',
      '/forms/edit/f1',
      '/forms/smtp',
      '/forms/template',
      '/gastromenu',
      '/gastromenu/new',
      '/gastromenu/edit/g1',
      '/gastromenu/g1',
      '/gastromenu/g1/categories',
      '/gastromenu/g1/allergens',
      '/gastromenu/categories',
      '/gastromenu/allergens',
      '/gastromenu/g1/items/new',
      '/gastromenu/g1/items/edit/i1',
      '/team',
      '/team/add',
      '/team/edit/t1',
      '/team/roles',
      '/team/roles/add',
      '/team/roles/edit/r1',
    ]),
  ],
  unknown: ['/register', '/nope', '/users/u1/extra', '/cms', '/user', '/websites/w1/seo'],
};

describe('the route table', () => {
  for (const [access, paths] of Object.entries(spec)) {
    it.each(paths)(`treats %s as ${access}`, (path) => {
      expect(findRoute(path).access).toBe(access);
    });
  }

  it('gives every spec path its own entry, titled', () => {
    const known = Object.entries(spec).filter(([access]) => access !== 'unknown');
    const entries = known.flatMap(([, paths]) => paths.map((path) => findRoute(path)));
    expect(new Set(entries).size).toBe(entries.length);
    for (const entry of entries) expect(entry.title.message).toBeTruthy();
  });
});
