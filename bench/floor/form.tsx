// The floor for a dish's editor: React and Vite with nothing of ours; the dish in one fetch, then
// its form with the name, description and price ready to type into.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import './floor.css';

interface Dish {
  name: string;
  description: string;
  price: number;
}

const dishId = new URLSearchParams(window.location.search).get('dish') ?? '';
const headers = { authorization: `Bearer ${localStorage.getItem('auth_token') ?? ''}`, accept: 'application/json' };

function DishForm() {
  const [dish, setDish] = useState<Dish | null>(null);

  useEffect(() => {
    void fetch(`/api/cms/gastro-menus/items/${dishId}`, { headers })
      .then((response) => response.json() as Promise<{ data: Dish }>)
      .then((body) => setDish(body.data));
  }, []);

  if (!dish) return <main>Loading…</main>;
  const change = (field: keyof Dish) => (event: { target: { value: string } }) => setDish({ ...dish, [field]: field === 'price' ? Math.round(Number(event.target.value) * 100) : event.target.value });
  return (
    <main>
      <h1>Dish</h1>
      <form onSubmit={(event) => event.preventDefault()}>
        <label>
          Name <input name="name" value={dish.name} onChange={change('name')} />
        </label>
        <label>
          Description <textarea name="description" value={dish.description} onChange={change('description')} />
        </label>
        <label>
          Price <input name="price" inputMode="decimal" value={(dish.price / 100).toFixed(2)} onChange={change('price')} />
        </label>
        <button type="submit">Save</button>
      </form>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <DishForm />
  </StrictMode>,
);
