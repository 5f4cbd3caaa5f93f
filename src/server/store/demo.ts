import { eq, inArray } from 'drizzle-orm';
import type { Db } from './open';
import type { Prices } from '../../contract/resources/services';
import { hashPassword } from '../auth/passwords';
import { quote } from '../services/quote';
import { MODULES } from '../../contract/modules';
import { DEFAULT_ALLERGENS } from '../../contract/resources/gastro';
import {
  categories,
  cmsPages,
  contactForms,
  gastroAllergens,
  gastroCategories,
  gastroItems,
  gastroMenus,
  heroSliders,
  heroSlides,
  hosting,
  languages,
  menuItems,
  menus,
  postCategories,
  posts,
  seo,
  services,
  subcategories,
  teamRoles,
  technologies,
  types,
  users,
  websites,
} from './schema';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** What an agency describes its websites with; enough that every catalog screen has something to show. */
const CATEGORIES: Record<string, string[]> = {
  Gastronomy: ['Restaurant', 'Café', 'Bakery', 'Bar'],
  Retail: ['Fashion', 'Books', 'Electronics'],
  Services: ['Craftsmen', 'Consulting', 'Health'],
  Associations: ['Sports club', 'Charity'],
};

const named = (names: string[]) => names.map((name) => ({ name }));

/** Cents for standard, agency and reseller partners: agencies pay 20 % less, resellers 30 %. */
const tiered = (standard: number): Prices => ({ standard, agency: Math.round(standard * 0.8), reseller: Math.round(standard * 0.7) });
const de = (name: string) => ({ de: { name } });

/** What an agency sells, priced per partner type (spec §7 "Other"), so /websites-form has something to compose. */
const SERVICES: (typeof services.$inferInsert)[] = [
  {
    name: 'Business website',
    content: de('Firmenwebsite'),
    description: 'A website of up to ten pages with its own design, pages and menus, ready for the delivery API.',
    type: 'package',
    prices: tiered(149_000),
    order: 10,
    features: [
      { key: 'extra-language', name: { en: 'Another language', de: 'Weitere Sprache' }, prices: tiered(19_000) },
      { key: 'seo-setup', name: { en: 'Search engine setup', de: 'Suchmaschinen-Einrichtung' }, prices: tiered(29_000) },
    ],
    modules: [
      { module: 'pages', prices: { standard: 0 } },
      { module: 'menus', prices: { standard: 0 } },
      { module: 'media', prices: { standard: 0 } },
      { module: 'contactForms', prices: tiered(9_000) },
    ],
  },
  {
    name: 'Restaurant website',
    content: de('Restaurant-Website'),
    description: 'A website for a restaurant or café: its menus with allergens, opening hours and a gallery.',
    type: 'package',
    prices: tiered(179_000),
    order: 20,
    features: [{ key: 'table-booking', name: { en: 'Table booking form', de: 'Tischreservierung' }, prices: tiered(24_000) }],
    modules: [
      { module: 'pages', prices: { standard: 0 } },
      { module: 'gastro', prices: tiered(39_000) },
      { module: 'gallerySliders', prices: tiered(12_000) },
      { module: 'heroSliders', prices: tiered(12_000) },
      { module: 'contactForms', prices: tiered(9_000) },
    ],
  },
  {
    name: 'Blog and news',
    content: de('Blog und Neuigkeiten'),
    description: 'Posts with categories, for news, offers and stories.',
    type: 'addon',
    prices: tiered(29_000),
    order: 30,
    modules: [{ module: 'posts', prices: { standard: 0 } }],
  },
  {
    name: 'Restaurant menus',
    content: de('Speisekarten'),
    description: 'Menus with categories, prices and allergens for an existing website.',
    type: 'addon',
    prices: tiered(19_000),
    order: 40,
    modules: [{ module: 'gastro', prices: tiered(39_000) }],
  },
  {
    name: 'Managed hosting (12 months)',
    content: de('Betreutes Hosting (12 Monate)'),
    description: 'Hosting with TLS certificate, updates and monitoring for a year.',
    type: 'hosting',
    prices: tiered(22_800),
    order: 50,
    features: [{ key: 'daily-backups', name: { en: 'Daily backups, kept 30 days', de: 'Tägliche Sicherung, 30 Tage aufbewahrt' }, prices: tiered(6_000) }],
  },
  {
    name: 'Care plan (12 months)',
    content: de('Wartungsvertrag (12 Monate)'),
    description: 'Content changes of up to two hours a month and answers within one working day.',
    type: 'care',
    prices: tiered(59_000),
    order: 60,
    features: [{ key: 'priority-support', name: { en: 'Answers within four hours', de: 'Antwort innerhalb von vier Stunden' }, prices: tiered(36_000) }],
  },
];

/** Demo catalogs and services for the first start (DEMO unset or 1). */
export async function demoCatalogs(tx: Tx): Promise<void> {
  const inserted = await tx
    .insert(categories)
    .values(named(Object.keys(CATEGORIES)))
    .returning({ id: categories.id, name: categories.name });
  await tx.insert(subcategories).values(inserted.flatMap((category) => CATEGORIES[category.name]!.map((name) => ({ name, categoryId: category.id }))));
  await tx.insert(types).values(named(['Business website', 'Online shop', 'Landing page', 'Blog', 'Restaurant website']));
  await tx.insert(technologies).values(named(['Sitekeeper delivery API', 'Next.js', 'Astro', 'WordPress', 'Static HTML']));
  await tx.insert(hosting).values(named(['Shared hosting', 'Managed cloud', 'Virtual server', 'Customer’s own server']));
  await tx.insert(services).values(SERVICES);
}

/** The first row's id, if any. */
const one = async <T extends { id: unknown }>(rows: Promise<T[]>) => (await rows)[0]?.id as string | undefined;

/** The demo owner's address: like the first admin's, one that reaches nobody outside this machine. */
export const DEMO_OWNER_EMAIL = 'owner@localhost';
/** The demo website's team member, who may look at its CMS but change nothing; same password as the owner. */
export const DEMO_MEMBER_EMAIL = 'team@localhost';

/**
 * A demo owner with a restaurant's website composed of the demo services (DEMO unset or 1), so a
 * newcomer sees the owner's side too. Their password is `password`, generated when not given.
 */
export async function demoOwner(tx: Tx, password: string): Promise<void> {
  const [owner] = await tx
    .insert(users)
    .values({ type: 'user', email: DEMO_OWNER_EMAIL, username: 'owner', passwordHash: await hashPassword(password), firstName: 'Olga', lastName: 'Owner', language: 'en' })
    .returning({ id: users.id });
  const byName = (table: typeof categories | typeof subcategories | typeof types | typeof technologies | typeof hosting, name: string) =>
    one(tx.select({ id: table.id }).from(table).where(eq(table.name, name)));
  const offered = await tx.select({ id: services.id, name: services.name }).from(services).where(inArray(services.name, ['Restaurant website', 'Managed hosting (12 months)']));
  const restaurant = offered.find((service) => service.name === 'Restaurant website')!.id;
  const items = [...offered.map((service) => service.id), ...['gastro', 'pages', 'heroSliders', 'contactForms'].map((module) => `${restaurant}:module:${module}`)];
  const [website] = await tx.insert(websites).values({
    name: 'Trattoria Demo',
    domain: 'trattoria-demo.example',
    description: 'A restaurant by the harbour: menus with allergens, opening hours and a gallery.',
    ownerId: owner!.id,
    status: 'active',
    categoryId: await byName(categories, 'Gastronomy'),
    subcategoryId: await byName(subcategories, 'Restaurant'),
    typeId: await byName(types, 'Restaurant website'),
    hostingId: await byName(hosting, 'Managed cloud'),
    technologyIds: [(await byName(technologies, 'Sitekeeper delivery API'))!],
    languageIds: (await tx.select({ id: languages.id }).from(languages)).map((language) => language.id),
    items,
    ...(await quote(tx as unknown as Db, items, 'standard')),
  }).returning({ id: websites.id });
  await demoContent(tx, website!.id);
  await demoMenu(tx, website!.id);
  await demoTeam(tx, website!.id, password);
}

/** What the demo website's CMS starts with: published pages in a menu, a post, its SEO, a hero slider, a booking form; the delivery API serves them at once. */
async function demoContent(tx: Tx, websiteId: string): Promise<void> {
  const [about, contact] = await tx
    .insert(cmsPages)
    .values([
      { websiteId, title: 'About us', slug: 'about', status: 'published', order: 1, content: '<h2>Since 1987 by the harbour</h2><p>Pizza from the <strong>wood oven</strong>, fresh pasta and fish from the morning market.</p>' },
      { websiteId, title: 'Contact', slug: 'contact', status: 'published', order: 2, content: '<p>Hafenstraße 12, open Tuesday to Sunday from 12:00.</p>' },
      { websiteId, title: 'Über uns', slug: 'about', language: 'de', status: 'published', order: 1, content: '<p>Seit 1987 am Hafen: Pizza aus dem <strong>Holzofen</strong>.</p>' },
      { websiteId, title: 'Summer terrace (draft)', slug: 'terrace', content: '<p>Coming soon.</p>' },
    ])
    .returning({ id: cmsPages.id });
  const [menu] = await tx.insert(menus).values({ websiteId, name: 'Header', location: 'header' }).returning({ id: menus.id });
  await tx.insert(menuItems).values([
    { websiteId, menuId: menu!.id, label: 'Home', url: '/', position: 0 },
    { websiteId, menuId: menu!.id, label: 'About us', pageId: about!.id, position: 1 },
    { websiteId, menuId: menu!.id, label: 'Contact', pageId: contact!.id, position: 2 },
  ]);
  const [news] = await tx.insert(postCategories).values({ websiteId, name: 'News', slug: 'news' }).returning({ id: postCategories.id });
  await tx.insert(posts).values({
    websiteId,
    title: 'The terrace is open again',
    slug: 'terrace-open',
    excerpt: 'From May, dinner by the water.',
    content: '<p>From May we serve dinner on the terrace again, every evening from 18:00.</p>',
    categoryId: news!.id,
    status: 'published',
    publishedAt: new Date('2026-05-01T10:00:00Z').toISOString(),
  });
  await tx.insert(seo).values({ websiteId, title: 'Trattoria Demo – pizza and pasta by the harbour', description: 'Wood-oven pizza, fresh pasta and fish by the harbour.', keywords: ['pizza', 'pasta', 'harbour'] });
  const [slider] = await tx.insert(heroSliders).values({ websiteId, name: 'Home page' }).returning({ id: heroSliders.id });
  await tx.insert(heroSlides).values([
    { websiteId, sliderId: slider!.id, title: 'Wood-oven pizza by the harbour', subtitle: 'Tuesday to Sunday from 12:00', buttonLabel: 'See the menu', buttonUrl: '/menu', position: 0 },
    { websiteId, sliderId: slider!.id, title: 'The terrace is open', subtitle: 'Dinner by the water from 18:00', buttonLabel: 'Book a table', buttonUrl: '/contact', position: 1 },
  ]);
  // No mail server yet: submissions wait, kept, until the owner saves one under Contact forms → Outgoing mail.
  await tx.insert(contactForms).values({
    websiteId,
    name: 'Table booking',
    description: 'Asks for a table; the restaurant answers by mail.',
    fields: [
      { name: 'name', label: 'Name', type: 'text', required: true, options: [] },
      { name: 'email', label: 'Email', type: 'email', required: true, options: [] },
      { name: 'date', label: 'Date', type: 'date', required: true, options: [] },
      { name: 'guests', label: 'Guests', type: 'select', required: true, options: ['1–2', '3–4', '5–8', 'More'] },
      { name: 'message', label: 'Message', type: 'textarea', required: false, options: [] },
    ],
  });
}

/** Dishes of the demo menu: name, price in cents, category, allergen letters (Codex-Empfehlung). */
const DISHES: readonly [string, number, string, string][] = [
  ['Bruschetta al pomodoro', 790, 'Antipasti', 'A'],
  ['Vitello tonnato', 1450, 'Antipasti', 'C D M'],
  ['Insalata mista', 850, 'Antipasti', 'M O'],
  ['Pizza Margherita', 1090, 'Pizza', 'A G'],
  ['Pizza Diavola', 1390, 'Pizza', 'A G'],
  ['Pizza Frutti di mare', 1690, 'Pizza', 'A B D G R'],
  ['Spaghetti aglio e olio', 1190, 'Pasta', 'A'],
  ['Tagliatelle al ragù', 1490, 'Pasta', 'A C G L'],
  ['Risotto ai funghi', 1590, 'Pasta', 'G L O'],
  ['Tiramisù', 790, 'Dolci', 'A C G'],
  ['Panna cotta', 690, 'Dolci', 'G'],
  ['Espresso', 290, 'Bevande', ''],
];

/** A published German menu with the default allergens, so the owner's phone and the delivery API show a real one. */
async function demoMenu(tx: Tx, websiteId: string): Promise<void> {
  const [menu] = await tx
    .insert(gastroMenus)
    .values({ websiteId, name: 'Speisekarte', description: 'Pizza aus dem Holzofen, frische Pasta, Dolci.', status: 'published', language: 'de' })
    .returning({ id: gastroMenus.id });
  const menuId = menu!.id;
  const allergens = await tx
    .insert(gastroAllergens)
    .values(DEFAULT_ALLERGENS.map(({ identifier, en, de: german }) => ({ websiteId, identifier, name: en, content: de(german) })))
    .returning({ id: gastroAllergens.id, identifier: gastroAllergens.identifier });
  const letter = new Map(allergens.map((allergen) => [allergen.identifier, allergen.id]));
  const names = [...new Set(DISHES.map(([, , category]) => category))];
  const made = await tx
    .insert(gastroCategories)
    .values(names.map((name, position) => ({ websiteId, menuId, name, position })))
    .returning({ id: gastroCategories.id, name: gastroCategories.name });
  const category = new Map(made.map((row) => [row.name, row.id]));
  await tx.insert(gastroItems).values(
    DISHES.map(([name, price, categoryName, letters], position) => ({
      websiteId,
      menuId,
      name,
      price,
      categoryId: category.get(categoryName)!,
      allergenIds: letters.split(' ').filter(Boolean).map((code) => letter.get(code)!),
      // One sold out, so the menu shows what that looks like.
      available: name !== 'Vitello tonnato',
      position,
    })),
  );
}

/** A team member who may view every CMS module (each at its declared demo level) and change nothing: how a team member's screens look. */
async function demoTeam(tx: Tx, websiteId: string, password: string): Promise<void> {
  const [role] = await tx
    .insert(teamRoles)
    .values({
      websiteId,
      name: 'View only',
      permissions: { cms: true, seo: false, team: false, settings: false },
      cmsPermissions: Object.fromEntries(MODULES.map((module) => [module.key, module.demo])),
    })
    .returning({ id: teamRoles.id });
  await tx.insert(users).values({
    type: 'teammember',
    email: DEMO_MEMBER_EMAIL,
    username: 'team',
    passwordHash: await hashPassword(password),
    firstName: 'Tom',
    lastName: 'Team',
    language: 'en',
    websiteId,
    teamRoleId: role!.id,
  });
}
