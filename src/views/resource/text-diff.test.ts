import { describe, expect, it } from 'vitest';
import { wordDiff } from './text-diff';

describe('wordDiff', () => {
  it('names the words taken out and put in, with a few unchanged ones around them', () => {
    expect(wordDiff('Tomatoes, mozzarella and basil', 'Tomatoes, buffalo mozzarella and fresh basil')).toEqual([
      { kind: 'same', text: 'Tomatoes, ' },
      { kind: 'added', text: 'buffalo ' },
      { kind: 'same', text: 'mozzarella and ' },
      { kind: 'added', text: 'fresh ' },
      { kind: 'same', text: 'basil' },
    ]);
    expect(wordDiff('Open daily', 'Closed on Mondays')).toEqual([
      { kind: 'removed', text: 'Open daily' },
      { kind: 'added', text: 'Closed on Mondays' },
    ]);
  });

  it('shortens a long unchanged stretch to the words next to the change', () => {
    const story = Array.from({ length: 40 }, (_, n) => `word${n}`).join(' ');
    const parts = wordDiff(story, `${story} appended`)!;
    expect(parts).toEqual([
      { kind: 'same', text: '… word36 word37 word38 word39 ' },
      { kind: 'added', text: 'appended' },
    ]);
  });

  it('declines texts too long to compare on a phone', () => {
    expect(wordDiff('a '.repeat(2000), 'b')).toBeNull();
  });
});
