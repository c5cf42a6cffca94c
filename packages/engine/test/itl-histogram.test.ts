import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ItlHistogram } from '../src/itl-histogram.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

/** What the histogram replaced: a map counting each value as it comes. */
function direct(adds: readonly [number, number][]): Map<number, number> {
  const m = new Map<number, number>();
  for (const [v, n] of adds) m.set(v, (m.get(v) ?? 0) + n);
  return m;
}

// Step-like ITLs: a walk of small moves (one page), jumps across pages, now and then a value
// the integer pages do not hold (fractional, negative, past 2^31, -0, NaN).
const itlArb = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: 9_900, max: 10_400 }) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 2_000_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(0.5, 12_000.25, -3, 2 ** 31, 2 ** 40 + 1, -0, Number.NaN, 255, 256) },
);

describe('ItlHistogram', () => {
  it('counts values, listing them in order of first occurrence (hand-written example)', () => {
    const h = new ItlHistogram();
    h.add(1066, 3);
    h.add(1300, 1);
    h.add(1066.5, 2);
    h.add(1066, 1);
    expect([...h.toMap()]).toEqual([
      [1066, 4],
      [1300, 1],
      [1066.5, 2],
    ]);
    // A snapshot: a later add shows in the next one.
    const before = h.toMap();
    h.add(7, 2);
    expect(before.has(7)).toBe(false);
    expect(h.toMap().get(7)).toBe(2);
  });

  it('past its page cap counts far-flung values in the map, each value always in one store', () => {
    const h = new ItlHistogram();
    const adds: [number, number][] = [];
    // One value in each of 100 pages (more than the cap), then each again, and neighbours.
    for (let round = 0; round < 2; round++) for (let p = 0; p < 100; p++) adds.push([p * 256 + 7, 1 + round], [p * 256 + 8, 2]);
    for (const [v, n] of adds) h.add(v, n);
    expect([...h.toMap()]).toEqual([...direct(adds)]);
    expect(h.toMap().get(99 * 256 + 7)).toBe(3);
  });

  it('equals a map counting directly, entries and their order, for any values', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(itlArb, fc.integer({ min: 1, max: 300 })), { maxLength: 400 }), (adds) => {
        const h = new ItlHistogram();
        for (const [v, n] of adds) h.add(v, n);
        expect([...h.toMap()]).toEqual([...direct(adds)]);
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
