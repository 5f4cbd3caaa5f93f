import type { Db } from './open';
import { categories, hosting, subcategories, technologies, types } from './schema';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** What an agency describes its websites with; enough that every catalog screen has something to show. */
const CATEGORIES: Record<string, string[]> = {
  Gastronomy: ['Restaurant', 'Café', 'Bakery', 'Bar'],
  Retail: ['Fashion', 'Books', 'Electronics'],
  Services: ['Craftsmen', 'Consulting', 'Health'],
  Associations: ['Sports club', 'Charity'],
};

const named = (names: string[]) => names.map((name) => ({ name }));

/** Demo catalogs for the first start (DEMO unset or 1); the demo website arrives with the websites module. */
export async function demoCatalogs(tx: Tx): Promise<void> {
  const inserted = await tx
    .insert(categories)
    .values(named(Object.keys(CATEGORIES)))
    .returning({ id: categories.id, name: categories.name });
  await tx.insert(subcategories).values(inserted.flatMap((category) => CATEGORIES[category.name]!.map((name) => ({ name, categoryId: category.id }))));
  await tx.insert(types).values(named(['Business website', 'Online shop', 'Landing page', 'Blog', 'Restaurant website']));
  await tx.insert(technologies).values(named(['Sitekeeper delivery API', 'Next.js', 'Astro', 'WordPress', 'Static HTML']));
  await tx.insert(hosting).values(named(['Shared hosting', 'Managed cloud', 'Virtual server', 'Customer’s own server']));
}
