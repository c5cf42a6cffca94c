import { percentile } from '@blis/engine/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CDF_MAX_POINTS, cdfPoints, quantileSorted } from '../src/cdf.js';

describe('cdfPoints', () => {
  it('keeps every sample when there are at most maxPoints of them', () => {
    expect(cdfPoints([10, 20, 30, 40, 50], 5)).toEqual([
      { p: 0, value: 10 },
      { p: 0.25, value: 20 },
      { p: 0.5, value: 30 },
      { p: 0.75, value: 40 },
      { p: 1, value: 50 },
    ]);
  });

  it('cuts to maxPoints exact quantiles at evenly spaced probabilities', () => {
    // n = 5, k = 3: p = 0, 0.5, 1 -> ranks 0, 2, 4.
    expect(cdfPoints([10, 20, 30, 40, 50], 3)).toEqual([
      { p: 0, value: 10 },
      { p: 0.5, value: 30 },
      { p: 1, value: 50 },
    ]);
    // n = 4, k = 3: p = 0.5 -> rank 1.5 -> halfway between 2 and 3.
    expect(cdfPoints([1, 2, 3, 4], 3)).toEqual([
      { p: 0, value: 1 },
      { p: 0.5, value: 2.5 },
      { p: 1, value: 4 },
    ]);
    // n = 11, k = 5: p = j/4 -> ranks 0, 2.5, 5, 7.5, 10 over 0, 10, ..., 100.
    const tens = Array.from({ length: 11 }, (_, i) => i * 10);
    expect(cdfPoints(tens, 5).map((pt) => pt.value)).toEqual([0, 25, 50, 75, 100]);
  });

  it('gives one point at p = 1 for one sample and none for none', () => {
    expect(cdfPoints([7])).toEqual([{ p: 1, value: 7 }]);
    expect(cdfPoints([])).toEqual([]);
  });

  it('is bounded, monotone, spans min..max, and its quantiles are the engine percentiles', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 2000 }), fc.integer({ min: 2, max: 500 }), (raw, k) => {
        const sorted = Float64Array.from(raw).sort();
        const pts = cdfPoints(sorted, k);
        expect(pts.length).toBe(Math.min(sorted.length, k));
        expect(pts[pts.length - 1].value).toBe(sorted[sorted.length - 1]);
        if (pts.length > 1) expect(pts[0].value).toBe(sorted[0]);
        for (let i = 1; i < pts.length; i++) {
          expect(pts[i].p).toBeGreaterThan(pts[i - 1].p);
          expect(pts[i].value).toBeGreaterThanOrEqual(pts[i - 1].value);
        }
        for (const p of [0.5, 0.9, 0.99]) expect(quantileSorted(sorted, p)).toBeCloseTo(percentile(sorted, p * 100), 9);
      }),
    );
  });

  it('defaults to at most CDF_MAX_POINTS points', () => {
    const big = Float64Array.from({ length: 100_000 }, (_, i) => i);
    const pts = cdfPoints(big);
    expect(pts.length).toBe(CDF_MAX_POINTS);
    expect(pts[0].value).toBe(0);
    expect(pts[CDF_MAX_POINTS - 1].value).toBe(99_999);
  });
});
