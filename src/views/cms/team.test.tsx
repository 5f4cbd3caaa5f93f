import { msg } from '@lingui/core/macro';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findRoute } from '../../app/routes';
import { MODULES } from '../../contract/modules';
import type { RoleInfo } from '../../contract/permissions';
import { teamMembers, teamRoles } from '../../contract/resources/team';
import { toast } from '../../machines/feedback';
import { renderScreen, sessionUser } from '../render-screen.test-support';
import { fakeStore, renderResourceScreen, row } from '../resource/fake-store.test-support';
import { preloadFieldKinds } from '../resource/field-kinds';
import { ResourceFormPage } from '../resource/resource-form';
import { ResourceListPage } from '../resource/resource-list-page';
import { PostsPage, postsScreen } from './posts';
import { membersScreen, rolesScreen, TeamMemberEditPage, TeamMemberNewPage, TeamPage, TeamRoleEditPage, TeamRoleNewPage, TeamRolesPage } from './team';

const SITE = '0190a1b2-0000-7000-8000-00000000a5e1';
const EDITORS = '0190a1b2-0000-7000-8000-0000000000e1';
const POST = '0190a1b2-0000-7000-8000-0000000000f1';
const NONE = { cms: false, seo: false, team: false, settings: false };

/** A team member of SITE holding `roleInfo`. */
const member = (roleInfo: RoleInfo) => sessionUser({ type: 'teammember', role: 'Some role', websiteId: SITE, roleInfo });
const owner = sessionUser({ type: 'user', role: null });

/** The owner's form for a new role, over an empty store: its spies tell what it sent. */
function renderNewRoleForm() {
  const { store, spies } = fakeStore({ teamRoles: [] });
  renderResourceScreen(
    <Route path="/cms/:websiteId/team/roles/add">
      <ResourceFormPage screen={rolesScreen} title={msg`Add team role`} id={null} />
    </Route>,
    store,
    { path: `/cms/${SITE}/team/roles/add`, user: owner },
  );
  return spies;
}

beforeEach(() => {
  localStorage.clear();
  for (const kind of ['success', 'info', 'error'] as const) vi.spyOn(toast, kind).mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the team screens', () => {
  it('are the six spec §2 routes under /cms/{id}/team, each loading its own screen from the team’s chunk', async () => {
    const screens = {
      '/cms/w1/team': TeamPage,
      '/cms/w1/team/add': TeamMemberNewPage,
      [`/cms/w1/team/edit/${EDITORS}`]: TeamMemberEditPage,
      '/cms/w1/team/roles': TeamRolesPage,
      '/cms/w1/team/roles/add': TeamRoleNewPage,
      [`/cms/w1/team/roles/edit/${EDITORS}`]: TeamRoleEditPage,
    };
    for (const [path, page] of Object.entries(screens)) {
      // What the route renders once its chunk is in: preloading it must bring this very screen.
      expect(await findRoute(path).page?.preload?.(), path).toBe(page);
    }
  });

  it('lists the members with their role’s name and whether they accepted the invitation', async () => {
    const { store } = fakeStore({
      teamMembers: [
        row({ id: 'm1', email: 'tina@example.test', firstName: 'Tina', lastName: 'Team', teamRoleId: EDITORS, status: 'active', verified: true }),
        row({ id: 'm2', email: 'nils@example.test', firstName: 'Nils', lastName: 'Neu', teamRoleId: null, status: 'active', verified: false }),
      ],
      teamRoles: [row({ id: EDITORS, name: 'Editors' })],
    });
    renderResourceScreen(
      <Route path="/cms/:websiteId/team">
        <ResourceListPage screen={membersScreen} title={msg`Team`} />
      </Route>,
      store,
      { path: `/cms/${SITE}/team`, user: owner },
    );

    const tina = await screen.findByRole('row', { name: /tina@example.test/ });
    await waitFor(() => expect(within(tina).getByText('Editors')).toBeDefined());
    expect(within(tina).getByText('Accepted')).toBeDefined();
    expect(within(screen.getByRole('row', { name: /nils@example.test/ })).getByText('Not accepted yet')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Add team member' }).getAttribute('href')).toBe(`/cms/${SITE}/team/add`);
    expect(screen.getByRole('link', { name: 'Edit tina@example.test' }).getAttribute('href')).toBe(`/cms/${SITE}/team/edit/m1`);
  });

  it('invites a member with the role picked from the website’s roles', async () => {
    const { store, spies } = fakeStore({ teamMembers: [], teamRoles: [row({ id: EDITORS, name: 'Editors' })] });
    renderResourceScreen(
      <Route path="/cms/:websiteId/team/add">
        <ResourceFormPage screen={membersScreen} title={msg`Add team member`} id={null} />
      </Route>,
      store,
      { path: `/cms/${SITE}/team/add`, user: owner },
    );

    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'tina@example.test' } });
    fireEvent.change(screen.getByLabelText('First name'), { target: { value: 'Tina' } });
    await waitFor(() => expect(screen.getByRole('option', { name: 'Editors' })).toBeDefined());
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: EDITORS } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(spies.submit).toHaveBeenCalled());
    const [resource, mutation] = spies.submit.mock.calls[0]!;
    expect(resource.name).toBe(teamMembers.name);
    expect(resource.paths.list).toBe(`/api/team/members/${SITE}`);
    expect(mutation).toMatchObject({ kind: 'create', values: { email: 'tina@example.test', firstName: 'Tina', lastName: '', teamRoleId: EDITORS, status: 'active', language: '' } });
  });

  it('edits a role’s flags and a level per CMS module, sent as the whole role', async () => {
    const spies = renderNewRoleForm();

    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Editors' } });
    fireEvent.click(screen.getByLabelText('Content (CMS)'));
    fireEvent.click(screen.getByLabelText('SEO'));
    const levels = screen.getByRole('group', { name: /Level per CMS module/ });
    // Every module has its level, none until chosen, with the four levels of spec §6.
    expect(within(levels).getAllByRole('combobox')).toHaveLength(MODULES.length);
    expect(within(levels).getByLabelText('Pages')).toHaveProperty('value', 'none');
    expect(within(within(levels).getByLabelText('Pages')).getAllByRole('option').map((option) => option.textContent)).toEqual(['No access', 'View', 'Edit', 'Manage (also add and delete)']);
    fireEvent.change(within(levels).getByLabelText('Pages'), { target: { value: 'edit' } });
    fireEvent.change(within(levels).getByLabelText('Media library'), { target: { value: 'view' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(spies.submit).toHaveBeenCalled());
    const [resource, mutation] = spies.submit.mock.calls[0]!;
    expect(resource.name).toBe(teamRoles.name);
    expect(resource.paths.create).toBe(`/api/team-roles/${SITE}/role`);
    expect(mutation).toMatchObject({
      kind: 'create',
      values: {
        name: 'Editors',
        permissions: { cms: true, seo: true, team: false, settings: false },
        cmsPermissions: { pages: 'edit', menus: 'none', posts: 'none', heroSliders: 'none', gallerySliders: 'none', media: 'view', contactForms: 'none', gastro: 'none' },
      },
    });
  });

  it('refuses the name “admin” in the form, as the server would', async () => {
    const spies = renderNewRoleForm();
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Admin' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/kept for administrators/)).toBeDefined();
    expect(spies.submit).not.toHaveBeenCalled();
  });
});

describe('a team member’s view of the CMS', () => {
  it('offers a member who may only view a module no way to add, edit or delete there', async () => {
    // The posts' figures come from their own path, not the store.
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ success: true, data: { total: 1, recent: 1, by: {} } }))));
    const { store } = fakeStore({ posts: [row({ id: POST, title: 'Summer menu', status: 'draft' })], postCategories: [] });
    renderResourceScreen(
      <Route path="/cms/:websiteId/posts">
        <ResourceListPage screen={postsScreen} title={msg`Posts`} />
      </Route>,
      store,
      { path: `/cms/${SITE}/posts`, user: member({ permissions: { ...NONE, cms: true }, cmsPermissions: { posts: 'view' } }) },
    );

    expect(await screen.findByRole('row', { name: /Summer menu/ })).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Add post' })).toBeNull();
    expect(screen.queryByRole('link', { name: /^Edit / })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete / })).toBeNull();
  });

  it('shows a record to a member who may only view it, without a way to change it', async () => {
    // The post's picture and rich text are chunks of their own: loaded before, not still loading when the test ends.
    await preloadFieldKinds(postsScreen.fields);
    const { store } = fakeStore({ posts: [row({ id: POST, title: 'Summer menu', slug: 'summer-menu', status: 'draft', content: '' })], postCategories: [], media: [] });
    renderResourceScreen(
      <Route path="/cms/:websiteId/posts/edit/:postId">
        <ResourceFormPage screen={postsScreen} title={msg`Edit post`} id={POST} />
      </Route>,
      store,
      { path: `/cms/${SITE}/posts/edit/${POST}`, user: member({ permissions: { ...NONE, cms: true }, cmsPermissions: { posts: 'view' } }) },
    );

    // Its fields sit in a disabled fieldset (what browsers grey out and skip; jsdom does not carry it down to :disabled).
    expect((await screen.findByDisplayValue('Summer menu')).closest('fieldset')).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('tells a member whose role opens no level of a module, or not the team, that they have no access there', async () => {
    const store = fakeStore({}).store;
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const pagesOnly = member({ permissions: { ...NONE, cms: true }, cmsPermissions: { pages: 'manage' } });
    renderResourceScreen(
      <Route path="/cms/:websiteId/posts">
        <PostsPage title={msg`Posts`} />
      </Route>,
      store,
      { path: `/cms/${SITE}/posts`, user: pagesOnly },
    );
    expect((await screen.findByRole('alert')).textContent).toMatch(/Your role does not give you access to this part of the website/);
    expect(screen.getByRole('heading', { name: 'Posts' })).toBeDefined();
    expect(screen.queryByRole('table')).toBeNull();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('shuts the team section to a member without the team flag, leaving the way back', async () => {
    localStorage.setItem('auth_token', 'token');
    localStorage.setItem('auth_user', JSON.stringify(member({ permissions: { ...NONE, cms: true }, cmsPermissions: {} })));
    const view = renderScreen(
      <Route path="/cms/:websiteId/team">
        <TeamPage title={msg`Team`} />
      </Route>,
      { path: `/cms/${SITE}/team` },
    );
    expect((await screen.findByRole('alert')).textContent).toMatch(/does not give you access/);
    // The section's way back and its tabs stay, so the page is not a dead end.
    expect(screen.getByRole('link', { name: /Website dashboard/ }).getAttribute('href')).toBe(`/websites/${SITE}`);
    view.unmount();
  });
});
