import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { storedLanguage } from '../api/storage';
import { App } from './app';
import { activateLanguage } from './i18n';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// Render only once the catalog is in: a first paint in the wrong language would flicker.
await activateLanguage(storedLanguage());

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
