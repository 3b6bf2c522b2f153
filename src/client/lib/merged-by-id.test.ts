import { describe, expect, it } from 'vitest';
import { mergedById } from './merged-by-id.ts';

describe('mergedById', () => {
  it('keeps each id once, in id order, the later copy winning', () => {
    const held = [
      { id: 3, body: 'c' },
      { id: 1, body: 'a' },
    ];
    const more = [
      { id: 2, body: 'b' },
      { id: 3, body: 'c, edited' },
    ];
    expect(mergedById(held, more)).toEqual([
      { id: 1, body: 'a' },
      { id: 2, body: 'b' },
      { id: 3, body: 'c, edited' },
    ]);
    expect(held).toHaveLength(2);
  });
});
