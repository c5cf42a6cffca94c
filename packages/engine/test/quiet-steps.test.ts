import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArrayRequestSource, type InstanceConfig, InstanceSimulator, type RequestSpec, makeRequestSpec, runInstance } from '../src/index.js';
import { blackbox, instanceConfig, promptHashes } from './drive.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';
import { countingQuietSteps } from '../../../tools/test-support/quiet-steps.js';

// runInstance with quiet runs (instance-quiet-steps.ts) against the reference engine: few
// requests at a time, long answers, so most steps are quiet; deadlines and a horizon bound
// the runs. Every metric and request outcome must be identical.

interface Case {
  config: InstanceConfig;
  specs: RequestSpec[];
  horizonUs: number | undefined;
}

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    kv: fc.integer({ min: 3, max: 200 }),
    blockSizeTokens: fc.constantFrom(1, 4, 16),
    maxNumSeqs: fc.integer({ min: 1, max: 4 }),
    budget: fc.integer({ min: 1, max: 300 }),
    alpha: fc.tuple(fc.integer({ min: 0, max: 500 }), fc.double({ min: 0, max: 2, noNaN: true }), fc.integer({ min: 0, max: 40 })),
    beta: fc.tuple(fc.integer({ min: 1, max: 2000 }), fc.double({ min: 0, max: 5, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true })),
    horizon: fc.option(fc.integer({ min: 1, max: 3_000_000 }), { nil: undefined }),
    requests: fc.array(
      fc.record({
        gap: fc.integer({ min: 0, max: 400_000 }),
        inputTokens: fc.integer({ min: 1, max: 120 }),
        outputTokens: fc.integer({ min: 0, max: 400 }),
        group: fc.integer({ min: -1, max: 1 }),
        deadline: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 2_000_000 }) }),
      }),
      { minLength: 1, maxLength: 12 },
    ),
  })
  .map((c) => {
    const config = instanceConfig(blackbox(c.alpha, c.beta), {
      totalKVBlocks: c.kv,
      blockSizeTokens: c.blockSizeTokens,
      maxNumSeqs: c.maxNumSeqs,
      maxNumBatchedTokens: c.budget,
      // The engine's own monitor checks every step: quiet runs are off under it.
      checkInvariants: false,
    });
    let t = 0;
    const specs = c.requests.map((r, index) => {
      t += r.gap;
      return makeRequestSpec({
        index,
        arrivalUs: t,
        inputTokens: r.inputTokens,
        outputTokens: r.outputTokens,
        deadlineUs: r.deadline > 0 ? t + r.deadline : 0,
        blockHashes: promptHashes(r.inputTokens, c.blockSizeTokens, r.group < 0 ? 0 : 2, Math.max(r.group, 0), index),
      });
    });
    return { config, specs, horizonUs: c.horizon };
  });

function outcome(c: Case, stepByStep: boolean) {
  const r = runInstance({ ...c.config, stepByStep }, new ArrayRequestSource(c.specs), c.horizonUs === undefined ? {} : { horizonUs: c.horizonUs });
  const m = r.instance.metrics;
  return { endUs: r.endUs, injected: r.injected, metrics: m, itl: [...m.itlEntries], usedBlocks: r.instance.kv.usedBlocks, queued: r.instance.queueDepth, running: r.instance.batchSize };
}

describe('quiet runs in runInstance', () => {
  it('give the reference engine results, with most steps taken quietly', () => {
    let quiet = 0;
    let steps = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const { result: fast, quiet: q } = countingQuietSteps(InstanceSimulator, () => outcome(c, false));
        const reference = outcome(c, true);
        expect(fast).toEqual(reference);
        quiet += q;
        steps += reference.metrics.steps;
      }),
      { numRuns: propertyRuns(150) },
    );
    // The generated cases are mostly quiet: the comparison above exercised the loop.
    expect(quiet).toBeGreaterThan(steps / 3);
  });

  it('takes no quiet step while invariant checks watch every step', () => {
    const c = fc.sample(caseArb, { seed: 7, numRuns: 1 })[0];
    const { quiet } = countingQuietSteps(InstanceSimulator, () => runInstance({ ...c.config, checkInvariants: true }, new ArrayRequestSource(c.specs)));
    expect(quiet).toBe(0);
  });
});
