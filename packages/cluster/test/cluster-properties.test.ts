import { InvariantViolation } from '@blis/engine';
import type { RouterState, RoutingPolicy } from '@blis/policies';
import { createRoutingPolicy, policyContext } from '@blis/policies';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildResult } from '../src/results.js';
import { buildCluster, hashesFor, spec } from './helpers.js';

const ROUTERS = ['round-robin', 'least-loaded', 'weighted', 'always-busiest', 'least-kv', 'prefix-aware', 'session-affinity'] as const;
const SCHEDULERS = ['fcfs', 'priority-fcfs', 'sjf', 'reverse-priority'] as const;
const PRIORITIES = ['constant', 'slo-class', 'slo-based'] as const;
const CLASSES = ['critical', 'standard', 'sheddable', 'batch', 'background'] as const;

const workloadArb = fc.array(
  fc.record({
    gap: fc.integer({ min: 0, max: 40_000 }),
    input: fc.integer({ min: 1, max: 900 }),
    output: fc.integer({ min: 0, max: 40 }),
    group: fc.integer({ min: 0, max: 3 }),
    shared: fc.integer({ min: 0, max: 20 }),
    cls: fc.constantFrom(...CLASSES),
    tenant: fc.constantFrom('a', 'b', 'c'),
    session: fc.integer({ min: 0, max: 5 }),
  }),
  { minLength: 1, maxLength: 60 },
);

const configArb = fc.record({
  instances: fc.integer({ min: 1, max: 5 }),
  kvBlocks: fc.integer({ min: 4, max: 300 }),
  maxNumSeqs: fc.integer({ min: 1, max: 16 }),
  budget: fc.integer({ min: 16, max: 1024 }),
  routing: fc.constantFrom(...ROUTERS),
  scheduler: fc.constantFrom(...SCHEDULERS),
  priority: fc.constantFrom(...PRIORITIES),
  preemption: fc.constantFrom('fcfs' as const, 'priority' as const),
  refresh: fc.constantFrom(0, 1_000, 50_000),
  admissionLatency: fc.constantFrom(0, 500),
  routingLatency: fc.constantFrom(0, 2_000),
  flow: fc.boolean(),
  maxGateway: fc.constantFrom(0, 5),
});

type Cfg = typeof configArb extends fc.Arbitrary<infer T> ? T : never;
type Work = typeof workloadArb extends fc.Arbitrary<infer T> ? T : never;

/** Wraps a router to check INV-7 (signal freshness) and INV-9 (no output length) at every decision. */
function guarded(inner: RoutingPolicy, refreshUs: number, inFlightTruth: () => number[]): RoutingPolicy {
  return {
    name: inner.name,
    route(req, state: RouterState) {
      for (const k of Object.keys(req)) if (/output/i.test(k)) throw new InvariantViolation('INV-9', `request view exposes ${k}`);
      const truth = inFlightTruth();
      state.instances.forEach((s, i) => {
        if (s.inFlightRequests !== truth[i]) throw new InvariantViolation('INV-7', `in-flight of instance ${i} is ${s.inFlightRequests}, router counted ${truth[i]}`);
        const age = state.nowUs - s.snapshotTimeUs;
        if (refreshUs === 0 ? age !== 0 : age >= refreshUs) throw new InvariantViolation('INV-7', `snapshot of instance ${i} is ${age} µs old with refresh ${refreshUs}`);
      });
      return inner.route(req, state);
    },
    onComplete: inner.onComplete?.bind(inner),
  };
}

function run(cfg: Cfg, work: Work) {
  let t = 0;
  const specs = work.map((w, i) => {
    t += w.gap;
    return spec(i, t, w.input, w.output, {
      sloClass: w.cls,
      tenantId: w.tenant,
      sessionId: `s${w.session}`,
      prefixGroup: `g${w.group}`,
      blockHashes: hashesFor(w.input, `g${w.group}`, w.shared, `u${i}`),
    });
  });
  const routedCount: number[] = new Array(cfg.instances).fill(0);
  const inner = createRoutingPolicy(cfg.routing, policyContext({ numInstances: cfg.instances }));
  let sim: ReturnType<typeof buildCluster> | undefined;
  const routing = guarded(inner, cfg.refresh, () => (sim ? sim.snapshots.map((s) => s.inFlightRequests) : routedCount));
  sim = buildCluster(specs, {
    instances: cfg.instances,
    kvBlocks: cfg.kvBlocks,
    maxNumSeqs: cfg.maxNumSeqs,
    budget: cfg.budget,
    scheduler: cfg.scheduler,
    priority: cfg.priority,
    preemption: cfg.preemption,
    checkInvariants: true,
    setup: {
      routing,
      snapshotRefreshIntervalUs: cfg.refresh,
      admissionLatencyUs: cfg.admissionLatency,
      routingLatencyUs: cfg.routingLatency,
      flowControl: cfg.flow ? { maxQueueDepth: cfg.maxGateway, queueDepthThreshold: 5, kvUtilizationThreshold: 0.8, saturationLimit: 1 } : undefined,
    },
  });
  sim.run();
  sim.checkConservation();
  return buildResult(sim, { sloTtftUs: 0, sloE2eUs: 0, includeRequests: true });
}

describe('cluster properties', () => {
  it('INV-1..9 hold on generated clusters and workloads', () => {
    fc.assert(
      fc.property(configArb, workloadArb, (cfg, work) => {
        const r = run(cfg, work);
        // INV-1: everything injected is accounted for, nothing is left once the run drains.
        expect(r.injected_requests).toBe(work.length);
        expect(r.completed_requests + r.dropped_unservable + r.rejected_requests + r.timed_out_requests + r.still_queued + r.still_running).toBe(work.length);
        expect(r.still_queued + r.still_running).toBe(0);
        // INV-5 for the reported numbers.
        for (const q of r.requests!) {
          expect(q.scheduling_delay_ms).toBeGreaterThanOrEqual(0);
          expect(q.ttft_ms).toBeGreaterThan(0);
          expect(q.e2e_ms).toBeGreaterThanOrEqual(q.ttft_ms);
        }
        const routed = Object.values(r.target_distribution).reduce((a, b) => a + b, 0);
        expect(routed).toBe(work.length - r.rejected_requests);
      }),
      { numRuns: 150 },
    );
  });

  it('is deterministic: the same inputs give the same result JSON', () => {
    fc.assert(
      fc.property(configArb, workloadArb, (cfg, work) => {
        expect(JSON.stringify(run(cfg, work))).toBe(JSON.stringify(run(cfg, work)));
      }),
      { numRuns: 40 },
    );
  });
});
