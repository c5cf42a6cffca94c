import { InvariantViolation, RequestState, type SimRequest } from '@blis/engine';
import {
  type RoutingPolicy,
  createPriorityPolicy,
  createRoutingPolicy,
  listPolicies,
  policyContext,
  seededRandomSource,
} from '@blis/policies';
import {
  comparePriorityFcfs,
  createKvUtilizationScorer,
  createPrefixAffinityScorer,
  createPrefixAware,
  createPrefixOverlap,
  createPrecisePrefixCacheScorer,
  createQueueDepthScorer,
  createWeightedRouting,
} from '@blis/policies/internal';
import { type AdmissionRecord, MemorySink, TraceRecorder, parseTrace } from '@blis/trace';
import { describe, expect, it } from 'vitest';
import { buildResult } from '../src/results.js';
import { type BuildOptions, buildCluster, hashesFor, spec } from './helpers.js';

// Seed 001, section 10 (behavioural contracts), as Given/When/Then tests on real clusters. The
// system-wide invariants (request_lifecycle, causality, clock monotonicity, KV conservation)
// are asserted on every generated case in cluster-properties.test.ts; this file holds the two
// BDD scenarios and the per-policy contracts.

const run = (specs: Parameters<typeof buildCluster>[0], o: BuildOptions) => {
  const sim = buildCluster(specs, o);
  sim.run();
  sim.checkConservation();
  return { sim, result: buildResult(sim, { sloTtftUs: 0, sloE2eUs: 0, includeRequests: true }) };
};
const ctx = (numInstances = 2, params: Record<string, unknown> = {}) => policyContext({ numInstances, params });
/**
 * A random source whose tie-breaks pick the first of the tied instances (nextInt -> 0), and
 * that counts its draws: routers drawing from it place a request that finds every instance
 * alike (request 0 below, on an idle cluster) on replica 0, as the scenario's Given needs.
 */
const firstTied = () => {
  const src = {
    draws: 0,
    next: () => 0,
    nextInt: (_n: number) => {
      src.draws++;
      return 0;
    },
  };
  return src;
};

describe('Scenario: Route to replica with cached prefix', () => {
  // Given replica 0 has prefix "0xABC123" in KV cache (request 0 carries it there and is still
  //   decoding, so replica 0 is also the busier one: a load-only router would avoid it; request
  //   0 finds both replicas idle, a tie, which a router breaks with a draw from its random
  //   source: here one that picks the first tied, replica 0)
  // And replica 1 does not have prefix "0xABC123"
  // When a request with prefix "0xABC123" arrives
  // Then the routing policy selects replica 0
  const PREFIX = '0xABC123';
  const specs = [
    spec(0, 0, 720, 300, { prefixGroup: PREFIX, blockHashes: hashesFor(720, PREFIX, 40, 'first') }),
    spec(1, 200_000, 720, 4, { prefixGroup: PREFIX, blockHashes: hashesFor(720, PREFIX, 40, 'second') }),
  ];
  const prefixRouters: [string, () => RoutingPolicy][] = [
    ['weighted (default precise-prefix-cache:2,queue-depth:1,kv-utilization:1)', () =>
      createRoutingPolicy('weighted', policyContext({ numInstances: 2, random: firstTied() }))],
    ['weighted precise-prefix-cache:2,queue-depth:1,kv-utilization:1', () =>
      createWeightedRouting([
        { scorer: createPrecisePrefixCacheScorer(), weight: 2 },
        { scorer: createQueueDepthScorer(), weight: 1 },
        { scorer: createKvUtilizationScorer(), weight: 1 },
      ])],
    ['weighted prefix-affinity:5,queue-depth:1', () =>
      createRoutingPolicy('weighted', policyContext({ numInstances: 2, params: { scorers: 'prefix-affinity:5,queue-depth:1' }, random: firstTied() }))],
    ['prefix-aware', () => createPrefixAware()],
    ['prefix-overlap', () => createPrefixOverlap()],
  ];

  it.each(prefixRouters)('%s selects replica 0 and hits the cache', (_name, make) => {
    const { result } = run(specs, { instances: 2, setup: { routing: make() } });
    const by = new Map(result.requests!.map((r) => [r.request_id, r]));
    expect(by.get('0')!.handled_by).toBe('instance_0');
    expect(by.get('1')!.handled_by).toBe('instance_0');
    expect(by.get('1')!.cache_hit_blocks).toBe(40);
  });

  it('a load-only router sends it to the idle replica 1 instead (the scenario is not trivial)', () => {
    const random = firstTied();
    const routing = createRoutingPolicy('least-loaded', policyContext({ numInstances: 2, random }));
    const { result } = run(specs, { instances: 2, setup: { routing } });
    const by = new Map(result.requests!.map((r) => [r.request_id, r]));
    expect(by.get('0')!.handled_by).toBe('instance_0');
    expect(by.get('1')!.handled_by).toBe('instance_1');
    expect(by.get('1')!.cache_hit_blocks).toBe(0);
    // Only request 0 met a tie: request 1 went to replica 1 on load alone, not by a draw.
    expect(random.draws).toBe(1);
  });

  it('with a drawn tie-break the prefix still follows request 0, wherever it landed', () => {
    // The registry's own random source (not the first-tied one): request 0's replica is drawn.
    for (const seed of [0, 1, 2, 3, 4, 5]) {
      const routing = createRoutingPolicy('weighted', policyContext({ numInstances: 2, random: seededRandomSource(seed) }));
      const { result } = run(specs, { instances: 2, setup: { routing } });
      const by = new Map(result.requests!.map((r) => [r.request_id, r]));
      expect(by.get('1')!.handled_by).toBe(by.get('0')!.handled_by);
      expect(by.get('1')!.cache_hit_blocks).toBe(40);
    }
  });
});

describe('Scenario: Realtime requests scheduled before batch', () => {
  // Given the wait queue has a batch request (arrival=100) and a realtime request (arrival=101)
  //   (one instance running one request at a time, busy with request 0 when both arrive)
  // When MakeBatch is called with a priority-aware scheduler
  // Then the realtime request is scheduled first
  const specs = [
    spec(0, 0, 500, 20, { sloClass: 'standard' }),
    spec(1, 100, 300, 5, { sloClass: 'batch' }),
    spec(2, 101, 300, 5, { sloClass: 'critical' }), // "realtime" is GAIE's critical class
  ];
  const scheduledAt = (scheduler: string) => {
    const { result } = run(specs, { maxNumSeqs: 1, priority: 'slo-class', scheduler });
    return new Map(result.requests!.map((r) => [r.request_id, r.arrival_ms + r.scheduling_delay_ms]));
  };

  it('priority-fcfs schedules the realtime request before the earlier batch one', () => {
    const t = scheduledAt('priority-fcfs');
    expect(t.get('2')!).toBeLessThan(t.get('1')!);
  });
  it('fcfs (not priority-aware) keeps arrival order', () => {
    const t = scheduledAt('fcfs');
    expect(t.get('1')!).toBeLessThan(t.get('2')!);
  });
  it('at the scheduler contract: the realtime entry sorts first', () => {
    const p = createPriorityPolicy('slo-class', ctx());
    const view = (index: number, arrivalUs: number, sloClass: string) => {
      const v = { ...spec(index, arrivalUs, 300, 5, { sloClass }), priority: 0 };
      v.priority = p.priority(v, 200);
      return v;
    };
    const queue = [
      { request: view(1, 100, 'batch'), enqueueSeq: 0 },
      { request: view(2, 101, 'critical'), enqueueSeq: 1 },
    ];
    expect(queue.sort(comparePriorityFcfs).map((e) => e.request.index)).toEqual([2, 1]);
  });
});

/** A burst that preempts, on 3 instances; every step's batch is checked against the limits. */
const BURST = Array.from({ length: 90 }, (_, i) =>
  spec(i, (i % 30) * 1_000, 100 + ((i * 7919) % 900), 1 + ((i * 104729) % 150), {
    sloClass: ['critical', 'standard', 'batch', 'sheddable'][i % 4],
    tenantId: i % 3 === 0 ? 'b' : 'a',
    blockHashes: hashesFor(100 + ((i * 7919) % 900), `g${i % 4}`, 4, `u${i}`),
  }),
);

describe('Policy contracts', () => {
  it('AdmissionPolicy: every decision is recorded in the decision trace', () => {
    const sink = new MemorySink();
    const recorder = new TraceRecorder({ level: 'decisions', sink });
    const { sim } = run(BURST, { instances: 3, admission: 'token-bucket', admissionParams: { capacity: 5000, refillRate: 50_000 }, setup: { observer: recorder } });
    recorder.finish(sim.endUs);
    const admits = parseTrace(sink.text()).filter((r): r is AdmissionRecord => r.t === 'admit');
    expect(admits).toHaveLength(90);
    expect(admits.filter((a) => !a.admit)).toHaveLength(sim.counters.rejected);
    expect(sim.counters.rejected).toBeGreaterThan(0);
    for (const a of admits.filter((x) => !x.admit)) expect(a.reason).toBe('insufficient tokens');
  });

  it.each(listPolicies().priority)('PriorityPolicy %s: deterministic for identical inputs', (name) => {
    const a = createPriorityPolicy(name, ctx());
    const b = createPriorityPolicy(name, ctx());
    for (const s of BURST.slice(0, 20)) {
      const v = { ...s, priority: 0 };
      const now = s.arrivalUs + 12_345;
      expect(a.priority(v, now)).toBe(b.priority(v, now));
      expect(a.priority(v, now)).toBe(a.priority(v, now));
    }
  });

  it('RoutingPolicy: an invalid replica id stops the run', () => {
    const bad: RoutingPolicy = { name: 'bad', route: () => ({ instance: 3, reason: '' }) };
    expect(() => run(BURST.slice(0, 3), { instances: 3, setup: { routing: bad } })).toThrow(InvariantViolation);
  });

  it('RoutingPolicy: the router shadow KV model is updated on every routing decision', () => {
    const shadow = createPrefixAffinityScorer();
    const inner = createWeightedRouting([
      { scorer: shadow, weight: 3 },
      { scorer: createQueueDepthScorer(), weight: 2 },
    ]);
    let decisions = 0;
    const checked: RoutingPolicy = {
      name: 'checked',
      route(req, state) {
        const d = inner.route(req, state);
        // Right after the decision, the chosen instance's shadow holds all of the request's blocks.
        expect(shadow.index.matchLength(req.blockHashes, state.instances[d.instance].index)).toBe(req.blockHashes.length);
        decisions++;
        return d;
      },
    };
    run(BURST, { instances: 3, setup: { routing: checked } });
    expect(decisions).toBe(90);
  });

  it.each(listPolicies().scheduler)('InstanceScheduler %s: batches respect max_batch_size and the token budget, nothing is lost', (scheduler) => {
    const maxNumSeqs = 6;
    const budget = 512;
    let steps = 0;
    let victims = 0;
    const running = new Set<SimRequest>(); // what the trace says is in a running batch
    const { sim, result } = run(BURST, {
      instances: 3,
      kvBlocks: 150,
      maxNumSeqs,
      budget,
      scheduler,
      priority: 'slo-class',
      preemption: 'priority',
      setup: {
        observer: {
          onStep(_now, _dt, batch) {
            steps++;
            expect(batch.prefillCount + batch.decodeCount).toBeLessThanOrEqual(maxNumSeqs);
            expect(batch.prefillTokens + batch.decodeTokens).toBeLessThanOrEqual(budget);
          },
          onScheduled(req) {
            running.add(req);
          },
          onPreempted(req, _now, instance) {
            // SelectPreemptionVictim returns a request from that instance's running batch.
            victims++;
            expect(running.delete(req)).toBe(true);
            expect(req.instance).toBe(instance);
            expect(req.state).toBe(RequestState.Queued);
          },
          onCompleted(req) {
            expect(running.delete(req)).toBe(true);
          },
        },
      },
    });
    expect(steps).toBeGreaterThan(0);
    expect(result.preemption_count).toBe(victims);
    expect(victims).toBeGreaterThan(0);
    expect(running.size).toBe(0);
    expect(result.completed_requests + result.dropped_unservable).toBe(90);
    for (const inst of sim.instances) expect(inst.kv.usedBlocks + inst.kv.freeBlocks).toBe(inst.kv.totalBlocks);
  });
});
