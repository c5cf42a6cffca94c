import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { summarizeUsAsMs } from '../src/internal.js';
import { NATIVE_SORT_MAX } from '../src/distribution.js';
import { selectOrderStatistics } from '../src/order-statistics.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

/** The summary as computed before selection: a full sort, percentiles read from it. */
function sortedSummary(samples: Float64Array) {
  const n = samples.length;
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (let i = 0; i < n; i++) sum += samples[i];
  const pct = (p: number) => {
    const rank = (p / 100) * (n - 1);
    const lo = Math.floor(rank);
    const hi = Math.min(lo + 1, n - 1);
    return sorted[lo] / 1000 + ((sorted[hi] - sorted[lo]) * (rank - lo)) / 1000;
  };
  return { count: n, mean: sum / n / 1000, min: sorted[0] / 1000, max: sorted[n - 1] / 1000, p50: pct(50), p90: pct(90), p95: pct(95), p99: pct(99) };
}

// Latency-like samples: integers with many repeats, some spread, and now and then 0, -0 or NaN.
const plain = fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 10_000_000 }));
const special = fc.oneof({ weight: 40, arbitrary: plain }, { weight: 1, arbitrary: fc.constantFrom(0, -0, Number.NaN, 0.5) });
const samplesArb = fc.oneof(
  { weight: 3, arbitrary: fc.array(plain, { minLength: 1, maxLength: 3000 }) },
  { weight: 1, arbitrary: fc.array(special, { minLength: 1, maxLength: 3000 }) },
);
// Past NATIVE_SORT_MAX the summary selects instead of sorting: the same checks there.
const large = { minLength: NATIVE_SORT_MAX + 1, maxLength: NATIVE_SORT_MAX + 2000 };
const largeSamplesArb = fc.oneof({ weight: 3, arbitrary: fc.array(plain, large) }, { weight: 1, arbitrary: fc.array(special, large) });

describe('selectOrderStatistics', () => {
  it('puts each requested rank where a sort would (hand-written example)', () => {
    const a = Float64Array.from([9, 1, 8, 2, 7, 3, 6, 4, 5, 5]);
    selectOrderStatistics(a, [0, 4, 5, 9]);
    expect([a[0], a[4], a[5], a[9]]).toEqual([1, 5, 5, 9]);
  });

  it('agrees with a full sort at every requested rank', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 400 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (values, raw) => {
          const a = Float64Array.from(values);
          const sorted = Float64Array.from(values).sort();
          const ks = raw.map((r) => r % a.length).sort((x, y) => x - y);
          selectOrderStatistics(a, ks);
          for (const k of ks) expect(a[k]).toBe(sorted[k]);
          // A permutation of the input.
          expect(Float64Array.from(a).sort()).toEqual(sorted);
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });
});

describe('summarizeUsAsMs', () => {
  it('interpolates percentiles in µs (hand-computed example)', () => {
    // n = 4: p50 at rank 1.5 -> 2000 + 0.5 * 1000 µs; p90 at rank 2.7 -> 3000 + 0.7 * 1000 µs.
    const d = summarizeUsAsMs(Float64Array.from([4000, 1000, 3000, 2000]));
    expect([d.count, d.mean, d.min, d.max, d.p50]).toEqual([4, 2.5, 1, 4, 2.5]);
    expect(d.p90).toBeCloseTo(3.7, 12);
    expect(d.p95).toBeCloseTo(3.85, 12);
    expect(d.p99).toBeCloseTo(3.97, 12);
  });

  it.each([
    ['sorted', samplesArb, 200],
    ['selected', largeSamplesArb, 15],
  ] as const)('gives exactly the summary of a full sort, for any sample (repeats, -0, NaN included): %s', (_, arb, runs) => {
    fc.assert(
      fc.property(arb, (values) => {
        const samples = Float64Array.from(values);
        const got = summarizeUsAsMs(samples);
        const want = sortedSummary(samples);
        for (const k of Object.keys(want) as (keyof typeof want)[]) expect(Object.is(got[k], want[k]), `${k}: ${got[k]} vs ${want[k]}`).toBe(true);
        // The input is left as it was.
        expect(Array.from(samples)).toEqual(values);
      }),
      { numRuns: propertyRuns(runs) },
    );
  });
});
