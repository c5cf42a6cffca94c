import fc from 'fast-check';
import { goodputTargetsArb, specArb } from '@blis/workload/testing';
import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/index.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

// Goodput's invariants on generated specs with generated thresholds (BLIS's definitions): a class's
// good requests are among its completions, which are among its arrivals; attainments are shares;
// the run's good requests are the classes' sum; the result's requests agree with the counts.

describe('goodput on generated workloads', () => {
  it('holds its counting invariants (fast-check)', () => {
    fc.assert(
      fc.property(specArb({ maxRequests: 60, maxClients: 2 }), goodputTargetsArb, fc.integer({ min: 1, max: 3 }), (spec, targets, instances) => {
        const r = simulate({ latencyModel: 'blackbox', numInstances: instances, totalKVBlocks: 4000, includeRequests: true, workload: { kind: 'spec', spec: { ...spec, goodput_slo_targets: targets } } });
        const g = r.goodput;
        const gated = Object.entries(targets).filter(([, t]) => (t.ttft_ms ?? 0) > 0 || (t.itl_ms ?? 0) > 0 || (t.e2e_ms ?? 0) > 0);
        if (gated.length === 0) {
          expect(g).toBeUndefined();
          return;
        }
        expect(g).toBeDefined();
        expect(Object.keys(g!.per_class)).toEqual(gated.map(([c]) => c).sort());
        const dur = r.vllm_estimated_duration_s;
        let good = 0;
        let arrivals = 0;
        for (const [cls, c] of Object.entries(g!.per_class)) {
          const classGood = dur > 0 ? Math.round(c.goodput_rps * dur) : 0;
          // A class's completions: the run's completed requests of that class (no class: default).
          const completed = (r.requests ?? []).filter((q) => (q.slo_class === '' ? 'default' : q.slo_class) === cls).length;
          expect(classGood).toBeLessThanOrEqual(c.count);
          expect(c.slo_attainment).toBeGreaterThanOrEqual(0);
          expect(c.slo_attainment).toBeLessThanOrEqual(1);
          if (cls !== 'default' && cls !== 'standard') expect(completed).toBeLessThanOrEqual(c.count);
          for (const share of Object.values(c.slo_attainment_by_dim)) expect(share >= 0 && share <= 1).toBe(true);
          good += classGood;
          arrivals += c.count;
        }
        expect(g!.slo_attainment).toBeCloseTo(arrivals === 0 ? 0 : good / arrivals, 12);
        expect(dur > 0 ? g!.goodput_rps * dur : 0).toBeCloseTo(good, 6);
      }),
      { numRuns: propertyRuns(25) },
    );
  });
});
