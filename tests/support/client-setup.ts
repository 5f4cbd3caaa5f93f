// IndexedDB for Dexie (src/db): an in-memory one per test file.
import 'fake-indexeddb/auto';
import { i18n } from '@lingui/core';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// Messages fall back to their English source text, so tests need no compiled catalog.
beforeEach(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});

// Globals are off in Vitest, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});
