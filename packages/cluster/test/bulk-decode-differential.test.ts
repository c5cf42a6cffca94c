import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SimulationConfigInput } from '../src/config-schema.js';
import { simulate } from '../src/simulate.js';
import { simulationConfigArb } from '../src/testing/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

/**
 * The bulk-decode engine against the reference (step-by-step) engine: every field of the
 * result, per-request records included, must be identical. fast-check prints the seed and
 * path of a failing case; BLIS_PROPERTY_RUNS scales the runs for a longer hunt.
 */
const SCALE = Number(process.env.BLIS_PROPERTY_RUNS ?? propertyRuns(400)) / 400;
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

// Every built-in latency model: blackbox reads the decode count, trained-physics the sum of
// contexts, roofline each context; `{}` is the default (trained-physics on the default model).
const latencyArb = fc.constantFrom<Partial<SimulationConfigInput>>(
  {},
  { latencyModel: 'blackbox' },
  { latencyModel: 'blackbox', alphaCoeffs: [2000, 1, 700], betaCoeffs: [5000, 20, 300] },
  { latencyModel: 'roofline', hardware: 'H100', tp: 1 },
  { latencyModel: 'trained-physics', hardware: 'H100', tp: 2 },
);

// Small blocks put block boundaries (KV allocations, and evictions of cached blocks) inside
// most bulk stretches; long answers make the stretches long.
const extrasArb = fc.record({
  latency: latencyArb,
  blockSizeTokens: fc.constantFrom(1, 2, 16),
  timeseries: fc.constantFrom(0, 0, 997, 20_000),
  // More running requests than the token budget: decode alone exhausts it mid-batch.
  crowded: fc.boolean(),
});

function differs(config: SimulationConfigInput): void {
  const fast = simulate(config);
  const reference = simulate(config, { stepByStep: true });
  expect(fast).toEqual(reference);
}

function withExtras(config: SimulationConfigInput, e: { latency: Partial<SimulationConfigInput>; blockSizeTokens: number; timeseries: number; crowded: boolean }): SimulationConfigInput {
  // The generated config's own latency choice (blackbox coefficients) gives way to this one.
  const { alphaCoeffs: _a, betaCoeffs: _b, latencyModel: _m, ...rest } = config;
  // Node pools were sized for one GPU a replica: at TP > 1 each node gets as many more GPUs, so
  // the same replicas fit (a pool that can host none is refused before the run).
  const tp = e.latency.tp ?? 1;
  const nodePools = rest.nodePools?.map((p) => ({ ...p, gpusPerNode: p.gpusPerNode * tp }));
  return {
    ...rest,
    ...(nodePools !== undefined ? { nodePools } : {}),
    ...e.latency,
    blockSizeTokens: e.blockSizeTokens,
    ...(e.timeseries > 0 ? { timeseriesIntervalUs: e.timeseries } : {}),
    ...(e.crowded ? { maxNumSeqs: 40, maxNumBatchedTokens: 24 } : {}),
  };
}

describe('bulk decode against the step-by-step engine', () => {
  it('gives identical results on generated clusters (policies, prefix groups, timeouts, sessions, tiny caches)', () => {
    const arb = fc.tuple(simulationConfigArb({ engineChecks: false, maxOutputTokens: 300, minKvBlocks: 4, maxKvBlocks: 400 }), extrasArb);
    fc.assert(
      fc.property(arb, ([config, extras]) => differs(withExtras(config, extras))),
      { numRuns: runs(600) },
    );
  });

  it('gives identical results with P/D, autoscaling and KV tiers', () => {
    const arb = fc.tuple(simulationConfigArb({ engineChecks: false, maxOutputTokens: 200, pd: 'sometimes', autoscaling: 'sometimes', kvTiers: 'sometimes' }), extrasArb);
    fc.assert(
      fc.property(arb, ([config, extras]) => differs(withExtras(config, extras))),
      { numRuns: runs(400) },
    );
  });

  it('gives identical results under heavy preemption (caches of a few blocks, long answers)', () => {
    const arb = fc.tuple(simulationConfigArb({ engineChecks: true, maxOutputTokens: 120, minKvBlocks: 4, maxKvBlocks: 24, maxInputTokens: 120 }), extrasArb);
    fc.assert(
      fc.property(arb, ([config, extras]) => differs(withExtras(config, extras))),
      { numRuns: runs(400) },
    );
  });
});
