import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeWeighted, sortedWeighted, summarizeSortedWeightedUsAsMs, summarizeWeightedUsAsMs } from '../src/internal.js';
import type { Distribution } from '../src/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

/** The weighted summary as first written: keys sorted with a comparator, two lookups per key. */
function referenceSummary(counts: ReadonlyMap<number, number>): Distribution {
  const values = [...counts.keys()].sort((a, b) => a - b);
  let n = 0;
  let sum = 0;
  for (const v of values) {
    n += counts.get(v)!;
    sum += v * counts.get(v)!;
  }
  if (n === 0) return { count: 0, mean: 0, min: 0, max: 0, p50: 0, p90: 0, p95: 0, p99: 0 };
  const cum: number[] = [];
  let acc = 0;
  for (const v of values) cum.push((acc += counts.get(v)!));
  const at = (k: number) => values[cum.findIndex((c) => c > k)];
  const pct = (p: number) => {
    const rank = (p / 100) * (n - 1);
    const lo = Math.floor(rank);
    const loUs = at(lo);
    return loUs / 1000 + ((at(Math.min(lo + 1, n - 1)) - loUs) * (rank - lo)) / 1000;
  };
  return { count: n, mean: sum / n / 1000, min: values[0] / 1000, max: values[values.length - 1] / 1000, p50: pct(50), p90: pct(90), p95: pct(95), p99: pct(99) };
}

const same = (got: Distribution, want: Distribution) => {
  for (const k of Object.keys(want) as (keyof Distribution)[]) expect(Object.is(got[k], want[k]), `${k}: ${got[k]} vs ${want[k]}`).toBe(true);
};

// ITL-like histograms: integer µs, clustered or spread, now and then a fraction or -0 (stored as 0).
const valueArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 5000, max: 5400 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 10_000_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(-0, 0.5, 7312.25, 2 ** 40 + 3) },
);
const mapArb = fc.array(fc.tuple(valueArb, fc.integer({ min: 1, max: 5000 })), { maxLength: 300 }).map((entries) => {
  const m = new Map<number, number>();
  for (const [v, c] of entries) m.set(v, (m.get(v) ?? 0) + c);
  return m;
});

describe('weighted summaries', () => {
  it('hand-computed example: 1 ms x3, 2 ms x1', () => {
    // n = 4, sum 5000 µs; p50 at rank 1.5: both ranks 1 ms; p90 at rank 2.7: 1 ms + 0.7 x 1 ms.
    const d = summarizeWeightedUsAsMs(new Map([[2000, 1], [1000, 3]]));
    expect([d.count, d.mean, d.min, d.max, d.p50]).toEqual([4, 1.25, 1, 2, 1]);
    expect(d.p90).toBeCloseTo(1.7, 12);
    expect(d.p99).toBeCloseTo(1.97, 12);
    expect(summarizeWeightedUsAsMs(new Map())).toEqual({ count: 0, mean: 0, min: 0, max: 0, p50: 0, p90: 0, p95: 0, p99: 0 });
  });

  it('sortedWeighted lists a map by value, each with its count', () => {
    const s = sortedWeighted(new Map([[30, 1], [10, 4], [20, 2]]));
    expect(Array.from(s.values)).toEqual([10, 20, 30]);
    expect(Array.from(s.counts)).toEqual([4, 2, 1]);
  });

  it('mergeWeighted adds the counts of equal values (hand example)', () => {
    const a = sortedWeighted(new Map([[10, 1], [30, 2]]));
    const b = sortedWeighted(new Map([[20, 5], [30, 1]]));
    const c = sortedWeighted(new Map([[5, 1]]));
    const m = mergeWeighted([a, b, c]);
    expect(Array.from(m.values)).toEqual([5, 10, 20, 30]);
    expect(Array.from(m.counts)).toEqual([1, 1, 5, 3]);
    expect(mergeWeighted([]).values.length).toBe(0);
  });

  it('a NaN value keeps the comparator sort\'s order', () => {
    fc.assert(
      fc.property(mapArb, fc.integer({ min: 1, max: 9 }), (m, c) => {
        const withNaN = new Map([...m, [Number.NaN, c]]);
        same(summarizeWeightedUsAsMs(withNaN), referenceSummary(withNaN));
      }),
      { numRuns: propertyRuns(50) },
    );
  });

  it('equal the comparator-sorted summary, for one map and for maps pooled through one', () => {
    fc.assert(
      fc.property(fc.array(mapArb, { minLength: 1, maxLength: 9 }), (maps) => {
        for (const m of maps) same(summarizeWeightedUsAsMs(m), referenceSummary(m));
        const pooled = new Map<number, number>();
        for (const m of maps) for (const [v, c] of m) pooled.set(v, (pooled.get(v) ?? 0) + c);
        same(summarizeSortedWeightedUsAsMs(mergeWeighted(maps.map(sortedWeighted))), referenceSummary(pooled));
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});
