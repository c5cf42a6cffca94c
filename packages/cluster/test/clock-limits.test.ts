import { MAX_CLOCK_US } from '@blis/engine';
import { minRateWithinClock } from '@blis/engine/internal';
import { describe, expect, it } from 'vitest';
import { SimulationConfigSchema } from '../src/index.js';
import { configLimitIssues } from '../src/internal.js';

// docs/limits.md: a horizon or a synthetic workload's arrivals past the simulated clock's range
// (whole µs up to 2^53 - 1) are refused, for library callers as for the CLI.

const issues = (c: Record<string, unknown>) => configLimitIssues(SimulationConfigSchema.parse(c));

describe('the clock range', () => {
  it('refuses a horizon past it, and accepts the limit itself', () => {
    expect(issues({ horizonUs: MAX_CLOCK_US + 2 })).toEqual([
      { path: ['horizonUs'], expected: "a horizon of at most 9007199254740991 µs, the simulated clock's range of about 285 years", found: '9007199254740992' },
    ]);
    expect(issues({ horizonUs: MAX_CLOCK_US })).toEqual([]);
  });

  it('refuses a rate whose requests would arrive past it, unless a horizon cuts them', () => {
    const w = (rate: number) => ({ workload: { kind: 'synthetic', numRequests: 1000, rate } });
    expect(issues(w(1e-300))).toEqual([
      {
        path: ['workload', 'rate'],
        expected: "at least 1.12e-7 requests per second (1000 requests arriving within 9007199254740991 µs, the simulated clock's range of about 285 years)",
        found: '1e-300',
      },
    ]);
    expect(issues(w(minRateWithinClock(1000)))).toEqual([]);
    expect(issues({ ...w(1e-300), horizonUs: 1e6 })).toEqual([]);
  });

  it('states a minimum rate that is enough', () => {
    for (const n of [1, 3, 100, 12345, 1e8]) expect((n / minRateWithinClock(n)) * 1e6).toBeLessThanOrEqual(MAX_CLOCK_US);
  });
});
