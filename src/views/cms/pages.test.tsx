import { msg } from '@lingui/core/macro';
import { screen } from '@testing-library/react';
import { Route } from 'wouter';
import { describe, expect, it } from 'vitest';
import { fakeStore, renderResourceScreen, row } from '../resource/fake-store.test-support';
import { ResourceListPage } from '../resource/resource-list-page';
import { pagesScreen } from './pages';

const SITE = '0190a1b2-0000-7000-8000-00000000a5e1';

describe('the pages list', () => {
  it('names each page’s language, never its code', async () => {
    const { store } = fakeStore({
      pages: [row({ id: '0190a1b2-0000-7000-8000-000000000001', title: 'About us', slug: 'about', status: 'published', language: 'en', order: 1 }), row({ id: '0190a1b2-0000-7000-8000-000000000002', title: 'Über uns', slug: 'about', status: 'published', language: 'de', order: 2 })],
    });
    renderResourceScreen(
      <Route path="/cms/:websiteId/pages">
        <ResourceListPage screen={pagesScreen} title={msg`Pages`} />
      </Route>,
      store,
      { path: `/cms/${SITE}/pages` },
    );
    await screen.findByText('About us');
    expect(screen.getByText('English')).toBeDefined();
    expect(screen.getByText('German')).toBeDefined();
    expect(screen.queryByText('en')).toBeNull();
  });
});
