import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTargets } from '../src/index.js';
import { largestPassing, smallestPassingInteger } from '../src/internal.js';

describe('parseTargets', () => {
  it('reads limits with their units, overall and per class', () => {
    const { targets, issues } = parseTargets('ttft_p99=500ms, e2e_p95=30s,critical:ttft_p90=200000us,itl_mean<=0.5m');
    expect(issues).toEqual([]);
    expect(targets).toEqual([
      { metric: 'ttft', stat: 'p99', limitMs: 500 },
      { metric: 'e2e', stat: 'p95', limitMs: 30_000 },
      { metric: 'ttft', stat: 'p90', limitMs: 200, sloClass: 'critical' },
      { metric: 'itl', stat: 'mean', limitMs: 30_000 },
    ]);
  });

  it('names every bad entry: unknown metric, statistic, unit, a missing unit, what a scope lacks', () => {
    const { issues } = parseTargets('tpot_p99=1ms,ttft_p42=1ms,e2e_p99=3h,e2e_p99=300,critical:e2e_p95=1s,critical:itl_p99=1ms,ttft_p50=1ms,nonsense,ttft_p99=0ms', '--target');
    expect(issues.map((i) => `${i.where} | ${i.found}`)).toEqual([
      '--target entry 1 "tpot_p99=1ms" | "tpot"',
      '--target entry 2 "ttft_p42=1ms" | "p42"',
      '--target entry 3 "e2e_p99=3h" | "h"',
      '--target entry 4 "e2e_p99=300" | "300" (no unit)',
      '--target entry 5 "critical:e2e_p95=1s" | p95',
      '--target entry 6 "critical:itl_p99=1ms" | itl_p99',
      '--target entry 7 "ttft_p50=1ms" | p50',
      '--target entry 8 | "nonsense"',
      '--target entry 9 "ttft_p99=0ms" | "0ms"',
    ]);
    expect(issues[4].expected).toMatch(/per-class result reports for e2e \(mean, p50, p90, p99\)/);
  });
});

describe('bracket search on a monotone predicate (property)', () => {
  it('largestPassing brackets any threshold within the tolerance, or reports the bound', async () => {
    await fc.assert(
      fc.asyncProperty(fc.double({ min: 0.01, max: 1e4, noNaN: true }), fc.double({ min: 0.01, max: 1e4, noNaN: true }), fc.double({ min: 0.001, max: 0.5, noNaN: true }), async (threshold, start, tol) => {
        const o = await largestPassing(start, 0.1, 1000, tol, async (x) => x <= threshold);
        if (threshold < 0.1) expect(o.status).toBe('lower-bound-fails');
        else if (threshold >= 1000) expect(o.status).toBe('upper-bound-passes');
        else {
          expect(o.status).toBe('found');
          const { passing, failing } = o as { passing: number; failing: number };
          expect(passing).toBeLessThanOrEqual(threshold);
          expect(failing).toBeGreaterThan(threshold);
          expect(failing - passing).toBeLessThanOrEqual(tol * failing);
        }
      }),
    );
  });

  it('smallestPassingInteger finds the exact threshold', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 150 }), async (threshold, start) => {
        const o = await smallestPassingInteger(start, 1, 128, async (n) => n >= threshold);
        if (threshold <= 1) expect(o).toMatchObject({ status: 'lower-bound-passes', answer: 1 });
        else if (threshold > 128) expect(o).toMatchObject({ status: 'upper-bound-fails', answer: null });
        else expect(o).toMatchObject({ status: 'found', answer: threshold, failing: threshold - 1 });
      }),
    );
  });
});
