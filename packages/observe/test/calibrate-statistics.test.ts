import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareMetric } from '../src/calibrate/metric-comparison.js';
import { breakdownMape, mapeAndBias, pearsonR, percentileSorted, qualityGrade } from '../src/calibrate/statistics.js';

describe('CAL-1: real TTFT [100,200,300,400] against sim [90,210,330,380]', () => {
  const m = compareMetric([100, 200, 300, 400], [90, 210, 330, 380]);
  it('MAPE 0.075, over-predict, r 0.98533, excellent', () => {
    expect(m.request_level.mape).toBeCloseTo(0.075, 12);
    expect(m.request_level.bias_direction).toBe('over-predict');
    // num 198,000 / den sqrt(200,000 · 201,900) = 200,947.75
    expect(m.request_level.pearson_r).toBeCloseTo(198_000 / Math.sqrt(200_000 * 201_900), 12);
    expect(m.request_level.pearson_r).toBeCloseTo(0.98533, 5);
    expect(m.request_level.quality).toBe('excellent');
    expect(m.count).toBe(4);
  });
  it('means 250 and 252.5, p50 250 against 270, p90 370 against 365', () => {
    const w = m.workload_level;
    expect([w.real_mean, w.sim_mean, w.mean_error]).toEqual([250, 252.5, 2.5]);
    expect(w.mean_percent_error).toBeCloseTo(0.01, 12);
    expect([w.real_p50, w.sim_p50, w.real_median, w.sim_median]).toEqual([250, 270, 250, 270]);
    expect(w.p50_error).toBe(20);
    expect(w.p50_percent_error).toBeCloseTo(0.08, 12);
    expect(w.real_p90).toBeCloseTo(370, 9);
    expect(w.sim_p90).toBeCloseTo(365, 9);
    expect(w.p90_error).toBeCloseTo(-5, 9);
  });
  it('keeps BLIS field order in workload_level', () => {
    expect(Object.keys(m.workload_level).slice(0, 8)).toEqual(['real_mean', 'sim_mean', 'mean_error', 'mean_percent_error', 'real_median', 'sim_median', 'median_error', 'median_percent_error']);
    expect(Object.keys(m.workload_level).at(-1)).toBe('p99_percent_error');
  });
});

describe('percentiles: linear interpolation at rank p/100·(n−1)', () => {
  it('hand-computed ranks', () => {
    const s = [10, 20, 30, 40, 50];
    expect(percentileSorted(s, 50)).toBe(30);
    expect(percentileSorted(s, 90)).toBeCloseTo(46, 12); // rank 3.6
    expect(percentileSorted(s, 95)).toBeCloseTo(48, 12); // rank 3.8
    expect(percentileSorted(s, 99)).toBeCloseTo(49.6, 12); // rank 3.96
    expect(percentileSorted([7], 99)).toBe(7);
    expect(percentileSorted([], 50)).toBe(0);
    expect(percentileSorted([1, 3], 50)).toBe(2);
  });
  it('compareMetric sorts numerically (not as text)', () => {
    const m = compareMetric([9, 100, 20], [9, 100, 20]);
    expect(m.workload_level.real_p50).toBe(20);
  });
});

describe('MAPE and bias', () => {
  it('skips real 0 values; neutral when errors cancel; empty direction with no usable pair', () => {
    expect(mapeAndBias([0, 100], [50, 110])).toEqual({ mape: 0.1, bias: 'over-predict' });
    expect(mapeAndBias([100, 100], [90, 110])).toEqual({ mape: 0.1, bias: 'neutral' });
    expect(mapeAndBias([100], [80]).bias).toBe('under-predict');
    expect(mapeAndBias([0, 0], [1, 2])).toEqual({ mape: 0, bias: '' });
  });
  it('percent errors are 0 when the real value is not positive', () => {
    const m = compareMetric([0, 0, 0], [5, 5, 5]);
    expect(m.workload_level.mean_percent_error).toBe(0);
    expect(m.request_level.bias_direction).toBe('');
  });
  it('breakdown MAPE skips non-finite errors', () => {
    expect(breakdownMape([100, 100], [110, Number.POSITIVE_INFINITY])).toBeCloseTo(0.1, 12);
  });
});

describe('Pearson r', () => {
  it('is 0 below 3 pairs and with no variance', () => {
    expect(pearsonR([1, 2], [1, 2])).toBe(0);
    expect(pearsonR([5, 5, 5], [1, 2, 3])).toBe(0);
    expect(pearsonR([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
  });
  it('two pairs grade poor whatever the MAPE (r stays 0)', () => {
    expect(compareMetric([100, 200], [100, 200]).request_level.quality).toBe('poor');
  });
});

describe('grades at each boundary (strict inequalities)', () => {
  it.each([
    [0.0999, 0.951, 'excellent'],
    [0.1, 0.99, 'good'],
    [0.05, 0.95, 'good'],
    [0.1999, 0.851, 'good'],
    [0.2, 0.99, 'fair'],
    [0.05, 0.85, 'fair'],
    [0.3499, 0.701, 'fair'],
    [0.35, 0.99, 'poor'],
    [0.05, 0.7, 'poor'],
  ] as const)('MAPE %s, r %s: %s', (mape, r, grade) => {
    expect(qualityGrade(mape, r)).toBe(grade);
  });
});

describe('properties', () => {
  const positive = fc.double({ min: 1, max: 1e7, noNaN: true });
  // Whole µs, as latencies are: the sums stay exact, so r is 1 up to rounding of the last divide.
  const latencyUs = fc.integer({ min: 1, max: 1_000_000 });
  it('sim == real: MAPE 0, r 1 (when real varies), excellent', () => {
    fc.assert(
      fc.property(fc.array(latencyUs, { minLength: 3, maxLength: 50 }), (real) => {
        fc.pre(new Set(real).size > 1);
        const m = compareMetric(real, real);
        expect(m.request_level.mape).toBe(0);
        expect(m.request_level.pearson_r).toBeCloseTo(1, 6);
        expect(m.request_level.quality).toBe('excellent');
        expect(m.request_level.bias_direction).toBe('neutral');
      }),
    );
  });
  it('MAPE and the percentiles do not depend on the order of the pairs', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(positive, positive), { minLength: 1, maxLength: 40 }).chain((pairs) => fc.tuple(fc.constant(pairs), fc.shuffledSubarray(pairs, { minLength: pairs.length, maxLength: pairs.length }))),
        ([pairs, shuffled]) => {
          const a = compareMetric(pairs.map((p) => p[0]), pairs.map((p) => p[1]));
          const b = compareMetric(shuffled.map((p) => p[0]), shuffled.map((p) => p[1]));
          // Summation order moves only the last bits: compare relative to the size of the MAPE.
          expect(Math.abs(b.request_level.mape - a.request_level.mape)).toBeLessThanOrEqual(1e-12 * Math.max(1, a.request_level.mape));
          expect(b.workload_level.real_p90).toBe(a.workload_level.real_p90);
          expect(b.workload_level.sim_p99).toBe(a.workload_level.sim_p99);
        },
      ),
    );
  });
  it('percentiles are monotone in p and lie within [min, max]', () => {
    fc.assert(
      fc.property(fc.array(positive, { minLength: 1, maxLength: 50 }), (xs) => {
        const s = [...xs].sort((a, b) => a - b);
        const ps = [0, 50, 90, 95, 99, 100].map((p) => percentileSorted(s, p));
        for (let i = 1; i < ps.length; i++) expect(ps[i]).toBeGreaterThanOrEqual(ps[i - 1]);
        expect(ps[0]).toBe(s[0]);
        expect(ps.at(-1)).toBe(s.at(-1));
      }),
    );
  });
});
