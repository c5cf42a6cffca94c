import type { AutoScalePolicy } from '@blis/policies';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SimulationConfigInput } from '../../src/index.js';
import { simulateChecked, simulationConfigArb } from '../../src/testing/index.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

// Autoscaled clusters from @blis/cluster/testing (every built-in autoscaler, windows, cooldown,
// delays, warm-up, every drain policy, node pools, with and without P/D), and scripted
// policies that draw deltas in [-3, 3]. simulateChecked checks the scale bounds, the allowed
// lifecycle edges, routing to routable replicas only, INV-1 with drained requests and the
// replica-second bookkeeping, besides INV-1..9.

/** Cases per property; BLIS_PROPERTY_RUNS raises it for a longer hunt. */
const RUNS = Math.max(1, Math.round(Number(process.env.BLIS_PROPERTY_RUNS ?? propertyRuns(400)) / 10));

/** Workloads long enough to cross several autoscaler intervals (up to 250 requests at 5 to 120/s). */
const workload = { minRequests: 20, maxRequests: 250, rates: [5, 20, 60, 120], maxInputTokens: 700, maxOutputTokens: 120, timeouts: false, sessions: false };
const caseArb = fc.record({
  config: simulationConfigArb({ autoscaling: true, pd: 'sometimes', minKvBlocks: 2_000, maxKvBlocks: 8_000, engineChecks: false, ...workload }),
  // A built-in (the config's), or a scripted policy drawing deltas in [-3, 3].
  script: fc.option(fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 12 }), { nil: undefined }),
});

function scriptedPolicy(deltas: readonly number[]): AutoScalePolicy {
  let k = 0;
  return { name: 'scripted', evaluate: () => ({ delta: deltas[k++ % deltas.length], reason: 'scripted' }) };
}

function run(config: SimulationConfigInput, script?: readonly number[], determinism = false) {
  return simulateChecked(config, script !== undefined ? { autoscaler: () => scriptedPolicy(script) } : {}, { determinism });
}

describe('autoscaling properties', () => {
  it('keeps scale bounds, INV-1 (with drained requests), allowed lifecycle edges and routing to routable replicas only', () => {
    fc.assert(
      fc.property(caseArb, ({ config, script }) => {
        const checked = run(config, script);
        expect(checked.violations).toEqual([]);
        expect(checked.result!.autoscaling).toBeDefined();
      }),
      { numRuns: RUNS },
    );
  });

  it('a wait drain keeps a decode pod until the parents in prefill that chose it arrive (found by the property above)', () => {
    // Min 0 under P/D: the pools scale down and up in turn; a decode pod idle at scale-down time
    // may still be the chosen decode pod of parents in prefill. It used to terminate at once,
    // and their decode parts were then discarded as drained under a `wait` drain.
    const config: SimulationConfigInput = {
      seed: 0,
      numInstances: 2,
      maxNumSeqs: 2,
      workload: { kind: 'synthetic', rate: 5, numRequests: 20, promptTokens: 16, outputTokens: 1, timeoutUs: 0 },
      pd: { prefillInstances: 1, decodeInstances: 1, decider: 'always' },
      autoscaling: {
        intervalUs: 500_000,
        policy: 'queue-depth',
        minReplicas: 0,
        maxReplicas: 2,
        scaleUpStabilizationWindowUs: 0,
        scaleDownStabilizationWindowUs: 0,
        cooldownUs: 0,
        scrapeDelay: { meanUs: 0, stddevUs: 0 },
      },
      lifecycle: {
        loadingDelay: { meanUs: 0, stddevUs: 0 },
        warmUpRequestCount: 0,
        warmUpDurationUs: 0,
        warmUpTtftFactor: 1,
        drainPolicy: 'wait',
        warmStartInitialInstances: false,
      },
    };
    const checked = run(config);
    expect(checked.violations).toEqual([]);
    expect(checked.result!.autoscaling!.drained_dropped).toBe(0);
    expect(checked.result!.completed_requests).toBe(20);
  });

  it('is deterministic: the same case gives byte-identical results', () => {
    fc.assert(
      fc.property(caseArb, ({ config, script }) => {
        expect(run(config, script, true).violations).toEqual([]);
      }),
      { numRuns: Math.max(1, Math.round(RUNS / 4)) },
    );
  });
});
