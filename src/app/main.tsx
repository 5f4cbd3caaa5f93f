import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { storedBranding } from '../api/branding';
import { activateLanguage } from '../api/catalogs';
import { interfaceLanguage } from '../api/interface-language';
import { isAuthenticated, subscribeSession } from '../api/session';
import { dateFormat } from '../components/intl-formats';
import { keepDeviceDataWithSession } from '../db/device-session';
import { App } from './app';
import { keepScreens } from './snapshot';
import { preloadPath } from './routes';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

keepDeviceDataWithSession();
keepScreens(root);
// Live updates come with a session: their code loads then, not with the sign-in page.
const liveWithSession = () => {
  if (isAuthenticated()) void import('../api/live').then(({ enableLiveUpdates }) => enableLiveUpdates());
};
liveWithSession();
subscribeSession(liveWithSession);

// The visitor's choice, else the installation's default as last seen (spec §9), so a returning
// visitor who never chose does not see English first; BrandingProvider applies a changed default.
const language = interfaceLanguage(storedBranding()?.defaultLanguage);
// Render only once the catalog and the screens of this path are in: a first paint in the wrong
// language would flicker, and a screen still loading would hold the first render back twice.
// A signed-in start skips the sign-in screens, so it loads every message at once (ADR 014).
const languageReady = activateLanguage(language, { all: isAuthenticated() });
const ready = Promise.all([languageReady, preloadPath(window.location.pathname, languageReady)]);
// Signed-in screens show dates, and a formatter's first use loads its locale's data (~20 ms, 86 ms
// on the phone profile): done while the screens' chunks are on their way. Not in this task: a
// dynamic import's request leaves only after it ends, so doing it here held every chunk back.
if (isAuthenticated()) setTimeout(() => dateFormat(language));
await ready;

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
