import { z } from 'zod/mini';
import { defineResource } from '../../src/contract/resource';

/*
 * Registry entries of each scope shape the product's modules use, kept in tests (ADR 009): the
 * machinery is proven on them before a module relies on it. Their tables are in scoped-tables.ts.
 */

const label = (one: string, other: string) => ({ one: { id: `test.${one}`, message: one }, other: { id: `test.${other}`, message: other } });
const Name = z.string().check(z.trim(), z.minLength(1), z.maxLength(100));
/** A record that is only its name. */
const nameOnly = { title: 'name', fields: { name: Name }, filters: {}, search: ['name'], sort: ['name'] } as const;

/** A website's topics: website from the path on every route (`/:websiteId/:topicId`). */
export const topics = defineResource({
  name: 'topics',
  label: label('topic', 'topics'),
  scope: 'website',
  module: 'posts',
  paths: { list: '/api/test/topics/:websiteId', item: '/api/test/topics/:websiteId/:topicId' },
  ...nameOnly,
});

/**
 * A website's notes: the item path names only the note (`/note/:noteId`), so its website comes
 * from the row; a topic of the same website; a secret written but never read back; a slug only
 * the server writes; whether a secret is set, and a receipt only the create's answer shows.
 */
export const notes = defineResource({
  name: 'notes',
  label: label('note', 'notes'),
  scope: 'website',
  module: 'pages',
  paths: { list: '/api/test/notes/:websiteId', item: '/api/test/notes/note/:noteId' },
  title: 'title',
  fields: { title: Name, topicId: z._default(z.nullable(z.uuid()), null) },
  computed: { slug: z.string(), secretSet: z.optional(z.boolean()), receipt: z.optional(z.string()) },
  secret: { secret: z.optional(z.string().check(z.maxLength(100))) },
  filters: { topicId: z.uuid() },
  search: ['title'],
  sort: ['title'],
  references: { topicId: 'topics' },
});

/** The spec's gastro-menus shape: `GET /:websiteId` lists a website's menus, `GET /:menuId` reads one. */
export const menus = defineResource({
  name: 'menus',
  label: label('menu', 'menus'),
  scope: 'website',
  module: 'gastro',
  paths: { list: '/api/test/menus/:websiteId', item: '/api/test/menus/:menuId' },
  ...nameOnly,
});

/** The spec's SEO shape: one record per website at `/website/:id`, behind the seo flag. */
export const seo = defineResource({
  name: 'seo',
  label: label('seo setting', 'seo settings'),
  scope: 'website',
  feature: 'seo',
  websiteParam: 'id',
  singleton: true,
  paths: { item: '/api/test/seo/website/:id' },
  title: 'title',
  fields: { title: Name },
  filters: {},
  search: [],
  sort: ['title'],
});

/** Rows of their owner (and partner), as websites are: admins choose the owner, everyone else is it. */
export const projects = defineResource({
  name: 'projects',
  label: label('project', 'projects'),
  scope: 'owner',
  owners: ['ownerId', 'partnerId'],
  paths: { list: '/api/test/projects', item: '/api/test/projects/:id' },
  title: 'name',
  fields: { name: Name, ownerId: z.uuid(), partnerId: z._default(z.nullable(z.uuid()), null) },
  filters: {},
  search: ['name'],
  sort: ['name'],
});
