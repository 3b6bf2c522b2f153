import { describe, expect, it } from 'vitest';
import {
  estimateVisitors,
  mergeInto,
  registersFromBits,
  registersOf,
  SKETCH_LENGTH,
  sketchOf,
} from './visitor-sketch.ts';

/** The bits `count` visitors set, as sketchBitSql would for well-spread hashes: a register, then a rank halving in odds. */
function bitsOf(count: number, seed: number): number[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
  return Array.from({ length: count }, () => {
    const register = Math.floor(random() * 512);
    let rank = 1;
    while (rank < 16 && random() < 0.5) rank++;
    return register * 16 + rank - 1;
  });
}

const estimate = (bits: number[]) => estimateVisitors(registersFromBits(bits), 0, Number.POSITIVE_INFINITY);

describe('the visitor sketch', () => {
  it('estimates few visitors almost exactly and many within three standard errors (14 %)', () => {
    expect(estimate([])).toBe(0);
    expect(Math.abs(estimate(bitsOf(20, 1)) - 20)).toBeLessThanOrEqual(1);
    for (const count of [3_000, 50_000, 1_000_000]) {
      expect(Math.abs(estimate(bitsOf(count, count)) / count - 1), `${count}`).toBeLessThan(0.14);
    }
  });

  it('merges two sketches into the sketch of both, through the bit strings PostgreSQL keeps', () => {
    const a = bitsOf(30_000, 7);
    const b = bitsOf(30_000, 8);
    const stored = [sketchOf(registersFromBits(a)), sketchOf(registersFromBits(b))];
    expect(stored[0]).toHaveLength(SKETCH_LENGTH);
    // bit_or of the two strings, as the database merges them.
    const orred = [...(stored[0] as string)]
      .map((bit, i) => (bit === '1' || stored[1]?.[i] === '1' ? '1' : '0'))
      .join('');
    const merged = mergeInto(registersOf(stored[0] as string), registersOf(stored[1] as string));
    expect(registersOf(orred)).toEqual(merged);
    expect(merged).toEqual(registersFromBits([...a, ...b]));
    expect(Math.abs(estimateVisitors(merged, 0, Number.POSITIVE_INFINITY) / 60_000 - 1)).toBeLessThan(0.14);
  });

  it('keeps the estimate between the largest daily count and the sum of them, which are exact', () => {
    const registers = registersFromBits(bitsOf(1_000, 3));
    expect(estimateVisitors(registers, 1_200, 2_000)).toBe(1_200);
    expect(estimateVisitors(registers, 100, 900)).toBe(900);
    expect(() => registersOf('01')).toThrow(/8192 bits/);
  });
});
