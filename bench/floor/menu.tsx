// The floor for a food menu: React and Vite with nothing of ours; the menu's categories and all its
// dishes in two fetches, every dish rendered under its category with its price.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import './floor.css';

interface Category {
  _id: string;
  name: string;
}
interface Dish {
  _id: string;
  name: string;
  price: number;
  categoryId: string | null;
}

const menuId = new URLSearchParams(window.location.search).get('menu') ?? '';
const headers = { authorization: `Bearer ${localStorage.getItem('auth_token') ?? ''}`, accept: 'application/json' };
const read = <T,>(path: string) => fetch(path, { headers }).then((response) => response.json() as Promise<{ data: T }>).then((body) => body.data);
const price = new Intl.NumberFormat('de', { style: 'currency', currency: 'EUR' });

function Menu() {
  const [menu, setMenu] = useState<{ categories: Category[]; dishes: Dish[] } | null>(null);

  useEffect(() => {
    void Promise.all([
      read<Category[]>(`/api/cms/gastro-menus/${menuId}/categories?limit=5000`),
      read<Dish[]>(`/api/cms/gastro-menus/${menuId}/items?limit=5000`),
    ]).then(([categories, dishes]) => setMenu({ categories, dishes }));
  }, []);

  return (
    <main>
      <h1>Menu</h1>
      {menu?.categories.map((category) => (
        <section key={category._id}>
          <h2>{category.name}</h2>
          <ul>
            {menu.dishes
              .filter((dish) => dish.categoryId === category._id)
              .map((dish) => (
                <li key={dish._id}>
                  <span>{dish.name}</span> {price.format(dish.price / 100)}
                </li>
              ))}
          </ul>
        </section>
      ))}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Menu />
  </StrictMode>,
);
