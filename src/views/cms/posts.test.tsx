import { msg } from '@lingui/core/macro';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../machines/feedback';
import { findRoute } from '../../app/routes';
import { posts } from '../../contract/resources/cms';
import { fakeStore, renderResourceScreen, row } from '../resource/fake-store.test-support';
import { preloadFieldKinds } from '../resource/field-kinds';
import { ResourceFormPage } from '../resource/resource-form';
import { postsScreen } from './posts';

const NEWS = '0190a1b2-0000-7000-8000-0000000000c1';

beforeEach(() => {
  localStorage.clear();
  for (const kind of ['success', 'info', 'error'] as const) vi.spyOn(toast, kind).mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe('the post form', () => {
  it('is a route of the CMS with a chunk of its own, as are the list and the categories', () => {
    for (const path of ['/cms/w1/posts', '/cms/w1/posts/new', `/cms/w1/posts/edit/${NEWS}`, '/cms/w1/posts/categories', '/cms/w1/pages', '/cms/w1/pages/new', `/cms/w1/pages/edit/${NEWS}`]) {
      expect(findRoute(path).page?.preload, path).toBeTypeOf('function');
    }
  });

  it('saves the title, a category, the publication date picked in local time, and the rich text as HTML', async () => {
    await preloadFieldKinds(postsScreen.fields);
    const { store, spies } = fakeStore({ posts: [], postCategories: [row({ id: NEWS, name: 'News' })], media: [] });
    renderResourceScreen(
      <Route path="/cms/:websiteId/posts/new">
        <ResourceFormPage screen={postsScreen} title={msg`New post`} id={null} />
      </Route>,
      store,
      { path: '/cms/w1/posts/new' },
    );

    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Summer menu' } });
    fireEvent.change(screen.getByLabelText('Publication date'), { target: { value: '2026-06-01T09:30' } });
    await waitFor(() => expect(screen.getByRole('option', { name: 'News' })).toBeDefined());
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: NEWS } });
    const content = screen.getByRole('textbox', { name: 'Content' });
    act(() => content.focus());
    fireEvent.click(screen.getByRole('button', { name: 'Bold' }));
    await act(async () => {
      content.querySelector('p')!.prepend('Fresh');
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(spies.submit).toHaveBeenCalled());
    const [resource, mutation] = spies.submit.mock.calls[0]!;
    expect(resource.name).toBe(posts.name);
    expect(mutation).toMatchObject({
      kind: 'create',
      values: {
        title: 'Summer menu',
        slug: '',
        status: 'draft',
        publishedAt: new Date('2026-06-01T09:30').toISOString(),
        categoryId: NEWS,
        coverMediaId: null,
        content: '<p><strong>Fresh</strong></p>',
      },
    });
  });
});
