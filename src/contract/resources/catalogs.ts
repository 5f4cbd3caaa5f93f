import { z } from 'zod/mini';
import { defineAction } from '../action';
import { SwitcherLanguageSchema } from '../auth';
import { messages } from '../messages';
import { defineResource } from '../resource';

// The global catalogs an admin keeps (spec §1) and everyone else picks from: readable by any
// signed-in user, written by admins only.
const access = { read: 'authenticated', write: 'admin' } as const;
const required = messages.required.id;

const Name = z.string().check(z.trim(), z.minLength(1, required), z.maxLength(100, messages.tooLong.id));
const Description = z._default(z.string().check(z.trim(), z.maxLength(1000, messages.tooLong.id)), '');

/** Name and description: the shape of every catalog that has nothing more to say. */
const named = { name: Name, description: Description };
const sortable = ['name', 'createdAt', 'updatedAt'] as const;

export const categories = defineResource({
  name: 'categories',
  label: { one: /*i18n*/ { id: 'resource.category', message: 'category' }, other: /*i18n*/ { id: 'resource.categories', message: 'categories' } },
  scope: 'global',
  access,
  title: 'name',
  paths: { list: '/api/categories', item: '/api/categories/:id' },
  fields: named,
  filters: {},
  search: ['name', 'description'],
  sort: sortable,
  unique: ['name'],
});

export const subcategories = defineResource({
  name: 'subcategories',
  label: {
    one: /*i18n*/ { id: 'resource.subcategory', message: 'subcategory' },
    other: /*i18n*/ { id: 'resource.subcategories', message: 'subcategories' },
  },
  scope: 'global',
  access,
  title: 'name',
  paths: { list: '/api/subcategories', item: '/api/subcategories/:id' },
  fields: { ...named, categoryId: z.uuid(required) },
  filters: { categoryId: z.uuid() },
  search: ['name', 'description'],
  sort: sortable,
  // A name is unique within its category (the table's index says so).
  unique: ['name'],
  references: { categoryId: 'categories' },
});

export const types = defineResource({
  name: 'types',
  label: { one: /*i18n*/ { id: 'resource.type', message: 'website type' }, other: /*i18n*/ { id: 'resource.types', message: 'website types' } },
  scope: 'global',
  access,
  title: 'name',
  paths: { list: '/api/types', item: '/api/types/:id' },
  fields: named,
  filters: {},
  search: ['name', 'description'],
  sort: sortable,
  unique: ['name'],
});

export const technologies = defineResource({
  name: 'technologies',
  label: {
    one: /*i18n*/ { id: 'resource.technology', message: 'technology' },
    other: /*i18n*/ { id: 'resource.technologies', message: 'technologies' },
  },
  scope: 'global',
  access,
  title: 'name',
  paths: { list: '/api/technologies', item: '/api/technologies/:id' },
  fields: named,
  filters: {},
  search: ['name', 'description'],
  sort: sortable,
  unique: ['name'],
});

export const hosting = defineResource({
  name: 'hosting',
  label: {
    one: /*i18n*/ { id: 'resource.hostingOption', message: 'hosting option' },
    other: /*i18n*/ { id: 'resource.hostingOptions', message: 'hosting options' },
  },
  scope: 'global',
  access,
  title: 'name',
  paths: { list: '/api/hosting', item: '/api/hosting/:id' },
  fields: named,
  filters: {},
  search: ['name', 'description'],
  sort: sortable,
  unique: ['name'],
});

export const LanguageCode = z.string().check(z.trim(), z.regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, messages.languageCodeFormat.id));

/** Spec §3: a language's name in other languages, keyed by their code: `{ de: { name: 'Englisch' } }`. */
export const LanguageContent = z.record(LanguageCode, z.object({ name: Name }));

export const languages = defineResource({
  name: 'languages',
  label: { one: /*i18n*/ { id: 'resource.language', message: 'language' }, other: /*i18n*/ { id: 'resource.languages', message: 'languages' } },
  scope: 'global',
  access,
  title: 'name',
  paths: { list: '/api/languages', item: '/api/languages/:id' },
  fields: { name: Name, code: LanguageCode, content: z._default(LanguageContent, {}) },
  filters: {},
  search: ['name', 'code'],
  sort: ['name', 'code', 'createdAt', 'updatedAt'],
  unique: ['code'],
});

/** `GET /api/languages/dropdown`: every language, for pickers. */
export const LanguageOptionSchema = z.object({ _id: z.uuid(), name: z.string(), code: z.string() });

export const listLanguageOptions = defineAction({
  name: 'listLanguageOptions',
  method: 'GET',
  path: '/api/languages/dropdown',
  policy: languages.access.list,
  summary: 'Every language of the catalog, by name, for pickers.',
  answer: z.array(LanguageOptionSchema),
});

/** Before sign-in too: the sign-in screen has the switcher. */
export const listSwitcherLanguages = defineAction({
  name: 'listSwitcherLanguages',
  method: 'GET',
  path: '/api/languages/switcher',
  policy: 'public',
  summary: 'The interface languages the header’s switcher offers, each under its own name.',
  query: z.object({ userLanguage: z.optional(z.string().check(z.maxLength(10))) }),
  answer: z.array(SwitcherLanguageSchema),
  failed: messages.languagesLoadFailed,
});
