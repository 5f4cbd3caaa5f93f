import { describe, expect, it } from 'vitest';
import { initials } from './initials';

describe('initials', () => {
  it.each([
    [{ firstName: 'Anna', lastName: 'Berg' }, 'AB'],
    [{ firstName: 'émile', lastName: 'zola' }, 'ÉZ'],
    [{ firstName: '  Anna ', lastName: '' }, 'A'],
    [{ firstName: '', lastName: 'Berg' }, 'B'],
    [{ firstName: '', lastName: '' }, 'U'],
    [{ firstName: ' ', lastName: null }, 'U'],
    [{}, 'U'],
    [null, 'U'],
  ])('%j → %s', (user, expected) => {
    expect(initials(user)).toBe(expected);
  });
});
