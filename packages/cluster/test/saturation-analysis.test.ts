import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, SimulationConfigSchema, simulate } from '../src/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// The post-hoc saturation analysis as part of a run: it adds `saturation` and changes nothing
// else, and its config is checked. BLIS_PROPERTY_SEED replays a failing seed (printed on failure).

const RUNS = Number(process.env.BLIS_PROPERTY_RUNS ?? propertyRuns(12));
const SEED = process.env.BLIS_PROPERTY_SEED !== undefined ? Number(process.env.BLIS_PROPERTY_SEED) : Date.now() | 0;

const base = (rate: number, numRequests: number, numInstances: number): SimulationConfigInput => ({
  model: 'meta-llama/llama-3.1-8b-instruct',
  numInstances,
  workload: { kind: 'synthetic', rate, numRequests, promptTokens: 256, promptTokensStdev: 64, outputTokens: 64, outputTokensStdev: 16 },
});

describe('saturationAnalysis in simulate()', () => {
  it('adds the labels of the named detectors and leaves every other field as it was', () => {
    try {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 3 }), fc.subarray(['composite', 'threshold', 'backlog-drift'] as const, { minLength: 1 }), (rate, n, inst, detectors) => {
          const off = simulate(base(rate, n, inst));
          const on = simulate({ ...base(rate, n, inst), saturationAnalysis: { detectors: [...detectors] } });
          const { saturation, ...rest } = on;
          expect(rest).toEqual(off);
          expect(Object.keys(saturation ?? {})).toEqual([...detectors].sort());
        }),
        { numRuns: RUNS, seed: SEED },
      );
    } catch (e) {
      console.error(`saturation-analysis: fast-check seed ${SEED} (BLIS_PROPERTY_SEED=${SEED} to replay)`);
      throw e;
    }
  });

  it('a higher threshold never makes the threshold label more severe', () => {
    const severity = { STABLE: 0, BACKLOGGED: 1, OVERLOADED: 2 } as const;
    const labelAt = (thresholdMs: number) => simulate({ ...base(80, 300, 1), saturationAnalysis: { detectors: ['threshold'], threshold: { thresholdMs } } }).saturation?.threshold ?? 'STABLE';
    const labels = [10, 1000, 3000, 10_000, 100_000].map(labelAt);
    for (let i = 1; i < labels.length; i++) expect(severity[labels[i]]).toBeLessThanOrEqual(severity[labels[i - 1]]);
    expect(labels[0]).toBe('OVERLOADED');
    expect(labels[labels.length - 1]).toBe('STABLE');
  });

  it('refuses a tuning block for a detector that does not run, and saturated above transient drain ratio', () => {
    const bad = SimulationConfigSchema.safeParse({ saturationAnalysis: { detectors: ['composite'], threshold: { thresholdMs: 5 } } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toMatch(/no threshold block unless threshold is among the detectors/);
    const ratios = SimulationConfigSchema.safeParse({ saturationAnalysis: { detectors: ['backlog-drift'], backlogDrift: { saturatedDrainRatio: 0.99 } } });
    expect(ratios.success).toBe(false);
    expect(SimulationConfigSchema.safeParse({ saturationAnalysis: { detectors: ['threshold'], threshold: { thresholdMs: 0 } } }).success).toBe(false);
  });

  it('votes over the final window: by default the backlog-drift window, else 30 s', () => {
    const run = (extra: object) => simulate({ ...base(60, 200, 1), saturationAnalysis: { detectors: ['composite', 'backlog-drift'], ...extra } }).saturation;
    // A 1 µs window votes on the last event alone: every request done, no deficit, STABLE.
    expect(run({ finalWindowUs: 1 })?.composite).toBe('STABLE');
    expect(run({ backlogDrift: { windowSizeSec: 1 } })).toEqual(run({ backlogDrift: { windowSizeSec: 1 }, finalWindowUs: 1_000_000 }));
    expect(run({})).toEqual(run({ finalWindowUs: 30_000_000 }));
  });
});
