import { describe, expect, it } from 'vitest';
import { pageNumbers } from './pagination';

describe('pageNumbers', () => {
  it('offers every page of a short list', () => {
    expect(pageNumbers(2, 4)).toEqual([1, 2, 3, 4]);
  });

  it('keeps the first, the last and the neighbours of the current page, with gaps between', () => {
    expect(pageNumbers(10, 20)).toEqual([1, null, 9, 10, 11, null, 20]);
    expect(pageNumbers(1, 20)).toEqual([1, 2, null, 20]);
    expect(pageNumbers(20, 20)).toEqual([1, null, 19, 20]);
  });
});
