import { ArrayRequestSource } from '@blis/engine';
import { type SaturationDetector, createSaturationDetector } from '@blis/policies';
import type { DecisionObserver } from '@blis/trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/index.js';
import { flowControlConfigArb } from '../../src/testing/index.js';
import { LLAMA8B, spec } from '../helpers.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

/** Cases per property; BLIS_PROPERTY_RUNS=2000 for a longer hunt. */
const RUNS = Number(process.env.BLIS_PROPERTY_RUNS ?? propertyRuns(120));
const CLASSES = ['critical', 'standard', 'batch', 'sheddable', 'background', ''] as const;

const workloadArb = fc.array(
  fc.record({
    gap: fc.integer({ min: 0, max: 4_000 }),
    input: fc.integer({ min: 1, max: 600 }),
    output: fc.integer({ min: 1, max: 30 }),
    cls: fc.constantFrom(...CLASSES),
    tenant: fc.constantFrom('a', 'b', 'c', ''),
  }),
  { minLength: 1, maxLength: 80 },
);

const caseArb = fc.record({
  flow: flowControlConfigArb(),
  instances: fc.integer({ min: 1, max: 3 }),
  kvBlocks: fc.integer({ min: 40, max: 200 }),
  maxNumSeqs: fc.integer({ min: 1, max: 8 }),
  budget: fc.integer({ min: 64, max: 512 }),
  /** Sometimes the run ends with requests still in flight or waiting at the gateway. */
  horizonUs: fc.option(fc.integer({ min: 1_000, max: 200_000 }), { freq: 3 }),
  workload: workloadArb,
});
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

/** Runs a case, watching what the detector said at each dispatch and what each band held. */
function runCase(c: Case) {
  let t = 0;
  const specs = c.workload.map((w, i) => spec(i, (t += w.gap), w.input, w.output, { sloClass: w.cls, tenantId: w.tenant }));
  const inner = createSaturationDetector(c.flow.saturationDetector, { queueDepthThreshold: c.flow.queueDepthThreshold, kvCacheUtilThreshold: c.flow.kvUtilizationThreshold, maxConcurrency: c.flow.maxConcurrency });
  let last = { sat: Number.NaN, at: -1 };
  const detector: SaturationDetector = {
    name: `watched ${inner.name}`,
    saturation(instances) {
      const sat = inner.saturation(instances);
      last = { sat, at: -2 };
      return sat;
    },
  };
  /** Saturation seen by the dispatch attempt that routed each request. */
  const dispatchedAt: number[] = [];
  const observer: DecisionObserver = {
    onRouting() {
      dispatchedAt.push(last.sat);
      last = { sat: Number.NaN, at: -1 };
    },
  };
  const result = simulate(
    {
      numInstances: c.instances,
      totalKVBlocks: c.kvBlocks,
      maxNumSeqs: c.maxNumSeqs,
      maxNumBatchedTokens: c.budget,
      checkInvariants: true,
      includeRequests: true,
      ...(c.horizonUs !== null ? { horizonUs: c.horizonUs } : {}),
      flowControl: c.flow,
    },
    { latency: LLAMA8B, source: new ArrayRequestSource(specs), saturationDetector: detector, observer },
  );
  return { result, dispatchedAt };
}

describe('flow control properties', () => {
  it('conserves requests: each completed, dropped, timed out, shed, expired, evicted or still in flight', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { result: r } = runCase(c);
        const g = r.gateway!;
        const rest = r.unfinished_requests ?? [];
        const count = (o: string) => rest.filter((u) => u.outcome === o).length;
        if (c.horizonUs === null) expect(r.injected_requests).toBe(c.workload.length);
        expect((r.requests ?? []).length + rest.length).toBe(r.injected_requests);
        expect(count('shed')).toBe(g.shed_requests);
        expect(g.shed_requests).toBe(g.queue_rejected + g.queue_shed);
        expect(count('expired')).toBe(g.expired_requests);
        expect(count('evicted')).toBe(g.evicted_requests);
        const live = count('still_queued') + count('still_running');
        expect(r.completed_requests + r.dropped_unservable + r.timed_out_requests + g.shed_requests + g.expired_requests + g.evicted_requests + live).toBe(r.injected_requests);
        // Requests still at the gateway are among the still-queued ones, and only with a horizon.
        expect(g.still_queued).toBeLessThanOrEqual(count('still_queued'));
        if (c.horizonUs === null) expect(live).toBe(0);
        // Options that are off leave nothing in their bucket.
        if (c.flow.requestTtlUs === 0) expect(g.expired_requests).toBe(0);
        if (!c.flow.inFlightEviction) expect(g.evicted_requests).toBe(0);
        if (!c.flow.queueShedding) expect(g.queue_shed).toBe(0);
        if (c.flow.maxGatewayQueueDepth === 0 && c.flow.perBandCapacity === 0) expect(g.queue_rejected).toBe(0);
      }),
      { numRuns: RUNS },
    );
  });

  it('never dispatches while the detector says the pool is saturated', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { result: r, dispatchedAt } = runCase(c);
        // Every routing is a gateway dispatch, made right after the detector was asked.
        expect(dispatchedAt.length).toBeGreaterThanOrEqual(r.gateway!.enqueued_requests - r.gateway!.queue_shed - r.gateway!.expired_requests - r.gateway!.still_queued);
        for (const sat of dispatchedAt) {
          expect(Number.isNaN(sat)).toBe(false);
          expect(sat).toBeLessThan(c.flow.saturationLimit);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('never holds more than --per-band-capacity in a band', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const g = runCase(c).result.gateway!;
        if (c.flow.perBandCapacity > 0) expect(g.max_band_depth).toBeLessThanOrEqual(c.flow.perBandCapacity);
        if (c.flow.maxGatewayQueueDepth > 0) expect(g.max_band_depth).toBeLessThanOrEqual(c.flow.maxGatewayQueueDepth);
      }),
      { numRuns: RUNS },
    );
  });
});
