// The floor for a list screen: React and Vite with nothing of ours, one fetch of the first page.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import './floor.css';

interface Category {
  _id: string;
  name: string;
  description: string;
}

function List() {
  const [rows, setRows] = useState<Category[]>([]);

  useEffect(() => {
    const headers = { authorization: `Bearer ${localStorage.getItem('auth_token') ?? ''}`, accept: 'application/json' };
    void fetch('/api/categories?page=1&limit=10', { headers })
      .then((response) => response.json() as Promise<{ data: Category[] }>)
      .then((body) => setRows(body.data));
  }, []);

  return (
    <main>
      <h1>Categories</h1>
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Description</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row._id}>
              <td>{row.name}</td>
              <td>{row.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <List />
  </StrictMode>,
);
