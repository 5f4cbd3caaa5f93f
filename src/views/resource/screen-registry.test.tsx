import { msg } from '@lingui/core/macro';
import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { postCategories } from '../../contract/resources/cms';
import type { ResourceScreen } from './screen';
import { registerScreenLoaders, registerScreens, useScreenWords } from './screen-registry';

const name = { name: 'name', label: msg`Name`, kind: 'text' } as const;
const slug = { name: 'slug', label: msg`Slug`, kind: 'text' } as const;
const screen = (fields: ResourceScreen['fields']): ResourceScreen => ({ resource: postCategories, columns: [], fields });

describe('the screen registry', () => {
  it('loads the screens of a resource it does not know when they are wanted, once, and hears them register', async () => {
    const load = vi.fn(async () => [screen([name])]);
    registerScreenLoaders({ postCategories: load });
    const { result, rerender } = renderHook(({ wanted }) => useScreenWords(wanted)(postCategories.name), { initialProps: { wanted: [] as string[] } });
    expect(result.current).toBeUndefined();
    expect(load).not.toHaveBeenCalled();

    rerender({ wanted: [postCategories.name, postCategories.name] });
    await waitFor(() => expect(result.current?.fields.map((field) => field.name)).toEqual(['name']));
    rerender({ wanted: [postCategories.name] });
    expect(load).toHaveBeenCalledOnce();

    // Another screen of it adds the fields the first lacks.
    registerScreens(screen([name, slug]));
    await waitFor(() => expect(result.current?.fields.map((field) => field.name)).toEqual(['name', 'slug']));
  });
});
