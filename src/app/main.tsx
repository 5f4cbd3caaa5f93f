import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { storedLanguage } from '../api/storage';
import { App } from './app';
import { activateLanguage } from './i18n';
import { preloadPath } from './routes';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// Render only once the catalog and the screens of this path are in: a first paint in the wrong
// language would flicker, and a screen still loading would hold the first render back twice.
await Promise.all([activateLanguage(storedLanguage()), preloadPath(window.location.pathname)]);

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
