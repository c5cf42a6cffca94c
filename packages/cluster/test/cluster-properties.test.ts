import { ArrayRequestSource, InvariantViolation, type SimRequest, runInstance } from '@blis/engine';
import type { RouterState, RoutingPolicy } from '@blis/policies';
import { createPriorityPolicy, createRoutingPolicy, createScheduler, listPolicies, policyContext } from '@blis/policies';
import type { DecisionObserver } from '@blis/trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { buildResult } from '../src/results.js';
import { LLAMA8B, buildCluster, hashesFor, spec } from './helpers.js';

/** Cases of the main property; BLIS_PROPERTY_RUNS=5000 for a longer hunt. */
const RUNS = Number(process.env.BLIS_PROPERTY_RUNS ?? 400);

// Every built-in policy of every stage, so a new one is covered the day it is registered.
const ROUTERS = listPolicies().routing;
const SCORERS = listPolicies().scorer;
const ADMISSIONS = listPolicies().admission;
const SCHEDULERS = listPolicies().scheduler;
const PRIORITIES = listPolicies().priority;
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
    // Mostly none; otherwise anything from before the alpha queueing delay ends to long after.
    timeout: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 300_000 }) }),
  }),
  { minLength: 1, maxLength: 60 },
);

/** A random non-empty subset of the scorers with random weights (weighted routing). */
const scorersArb = fc.uniqueArray(fc.record({ name: fc.constantFrom(...SCORERS), weight: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.double({ min: 0.01, max: 5, noNaN: true })) }), {
  selector: (s) => s.name,
  minLength: 1,
  maxLength: SCORERS.length,
});

/** Params each admission policy needs (or is more interesting with). */
const admissionParamsArb = (name: string): fc.Arbitrary<Record<string, unknown>> => {
  switch (name) {
    case 'token-bucket':
      return fc.record({ capacity: fc.integer({ min: 500, max: 20_000 }), refillRate: fc.integer({ min: 1, max: 200_000 }) });
    case 'tenant-quota':
      return fc.record({ maxInFlight: fc.integer({ min: 1, max: 20 }), allowBorrowing: fc.boolean() });
    case 'slo-shed':
      return fc.double({ min: 0.2, max: 2, noNaN: true }).map((threshold) => ({ threshold, protectedThreshold: threshold * 2 }));
    default:
      return fc.constant({});
  }
};

const configArb = fc
  .record({
    instances: fc.integer({ min: 1, max: 8 }),
    kvBlocks: fc.integer({ min: 4, max: 300 }),
    maxNumSeqs: fc.integer({ min: 1, max: 16 }),
    budget: fc.integer({ min: 16, max: 1024 }),
    routing: fc.constantFrom(...ROUTERS),
    scorers: scorersArb,
    admission: fc.constantFrom(...ADMISSIONS).chain((name) => admissionParamsArb(name).map((params) => ({ name, params }))),
    scheduler: fc.constantFrom(...SCHEDULERS),
    priority: fc.constantFrom(...PRIORITIES),
    preemption: fc.constantFrom('fcfs' as const, 'priority' as const),
    refresh: fc.constantFrom(0, 1, 1_000, 50_000),
    admissionLatency: fc.constantFrom(0, 500),
    routingLatency: fc.constantFrom(0, 2_000),
    flow: fc.boolean(),
    maxGateway: fc.constantFrom(0, 5),
    queueThreshold: fc.constantFrom(1, 5, 20),
    kvThreshold: fc.constantFrom(0.3, 0.8, 1),
    maxModelLen: fc.constantFrom(0, 0, 0, 300, 940),
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

/**
 * INV-2 (lifecycle), INV-3 (clock), INV-5 (causality across the cluster stages) and seed 001's
 * request_lifecycle (exactly one terminal state) from the decision hooks.
 */
class LifecycleMonitor implements DecisionObserver {
  private readonly admittedAt = new Map<number, number>();
  private readonly routedAt = new Map<number, number>();
  private readonly state = new Map<number, 'admitted' | 'routed' | 'queued' | 'running'>();
  readonly terminal = new Map<number, string>();
  private clock = 0;

  private tick(now: number, what: string) {
    if (now < this.clock) throw new InvariantViolation('INV-3', `${what} at ${now} after the clock reached ${this.clock}`);
    this.clock = now;
  }
  private move(req: SimRequest, from: readonly string[], to: 'admitted' | 'routed' | 'queued' | 'running') {
    const i = req.view.index;
    const cur = this.state.get(i) ?? 'new';
    if (!from.includes(cur)) throw new InvariantViolation('INV-2', `request ${i}: ${cur} -> ${to}`);
    this.state.set(i, to);
  }
  private end(req: SimRequest, outcome: string, from: readonly string[]) {
    const i = req.view.index;
    if (this.terminal.has(i)) throw new InvariantViolation('INV-2', `request ${i} ended twice: ${this.terminal.get(i)} then ${outcome}`);
    const cur = this.state.get(i) ?? 'new';
    if (!from.includes(cur)) throw new InvariantViolation('INV-2', `request ${i}: ${cur} -> ${outcome}`);
    this.state.delete(i);
    this.terminal.set(i, outcome);
  }
  onAdmission(req: SimRequest, d: { admit: boolean }, _s: RouterState, now: number) {
    this.tick(now, 'admission');
    if (now < req.spec.arrivalUs) throw new InvariantViolation('INV-5', `request ${req.view.index} admitted before it arrived`);
    this.admittedAt.set(req.view.index, now);
    if (d.admit) this.move(req, ['new'], 'admitted');
  }
  onRouting(req: SimRequest, _d: unknown, _s: RouterState, now: number) {
    this.tick(now, 'routing');
    if (now < (this.admittedAt.get(req.view.index) ?? Number.POSITIVE_INFINITY)) throw new InvariantViolation('INV-5', `request ${req.view.index} routed before admission`);
    this.routedAt.set(req.view.index, now);
    this.move(req, ['admitted'], 'routed');
  }
  onQueued(req: SimRequest, now: number) {
    this.tick(now, 'queueing');
    if (now < (this.routedAt.get(req.view.index) ?? Number.POSITIVE_INFINITY)) throw new InvariantViolation('INV-5', `request ${req.view.index} queued before routing`);
    this.move(req, ['routed'], 'queued');
  }
  onScheduled(req: SimRequest, now: number) {
    this.tick(now, 'scheduling');
    this.move(req, ['queued'], 'running');
  }
  onPreempted(req: SimRequest, now: number) {
    this.tick(now, 'preemption');
    this.move(req, ['running'], 'queued');
  }
  private steps = 0;
  onStep(now: number) {
    this.tick(now, 'step');
    // A livelock shows up as a failing case with its seed instead of a hung test run.
    if (++this.steps > 300_000) throw new Error('over 300,000 steps for at most 60 requests: livelock?');
  }
  onCompleted(req: SimRequest, now: number) {
    if (now < this.clock) throw new InvariantViolation('INV-5', `request ${req.view.index} completed at ${now}, before ${this.clock}`);
    this.end(req, 'completed', ['running']);
  }
  onDropped(req: SimRequest, now: number, reason: string) {
    this.tick(now, reason);
    const from = reason === 'rejected' ? ['new'] : reason === 'shed' ? ['admitted'] : reason === 'unservable' ? ['routed'] : ['routed', 'queued', 'running'];
    this.end(req, reason, from);
  }
}

function run(cfg: Cfg, work: Work, monitor?: LifecycleMonitor) {
  let t = 0;
  const specs = work.map((w, i) => {
    t += w.gap;
    return spec(i, t, w.input, w.output, {
      sloClass: w.cls,
      tenantId: w.tenant,
      sessionId: `s${w.session}`,
      prefixGroup: `g${w.group}`,
      blockHashes: hashesFor(w.input, `g${w.group}`, w.shared, `u${i}`),
      deadlineUs: w.timeout > 0 ? t + w.timeout : 0,
    });
  });
  const routedCount: number[] = new Array(cfg.instances).fill(0);
  const inner = createRoutingPolicy(cfg.routing, policyContext({ numInstances: cfg.instances, params: cfg.routing === 'weighted' ? { scorers: cfg.scorers } : {} }));
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
    admission: cfg.admission.name,
    admissionParams: cfg.admission.params,
    checkInvariants: true,
    maxModelLen: cfg.maxModelLen,
    setup: {
      routing,
      observer: monitor,
      snapshotRefreshIntervalUs: cfg.refresh,
      admissionLatencyUs: cfg.admissionLatency,
      routingLatencyUs: cfg.routingLatency,
      flowControl: cfg.flow ? { maxQueueDepth: cfg.maxGateway, queueDepthThreshold: cfg.queueThreshold, kvUtilizationThreshold: cfg.kvThreshold, saturationLimit: 1 } : undefined,
      saturation: { queueDepthThreshold: cfg.queueThreshold, kvUtilizationThreshold: cfg.kvThreshold },
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
        const monitor = new LifecycleMonitor();
        const r = run(cfg, work, monitor);
        // Every request reached exactly one terminal state.
        expect(monitor.terminal.size).toBe(work.length);
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
      { numRuns: RUNS },
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

  it('is deterministic through simulate(): the same config and seed give byte-identical JSON', () => {
    const simArb = fc.record({
      seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      numInstances: fc.integer({ min: 1, max: 8 }),
      routing: fc.constantFrom(...ROUTERS),
      scorers: scorersArb,
      priority: fc.constantFrom(...PRIORITIES),
      scheduler: fc.constantFrom(...SCHEDULERS),
      refresh: fc.constantFrom(0, 10_000),
      flow: fc.boolean(),
      rate: fc.constantFrom(5, 50, 500),
    });
    fc.assert(
      fc.property(simArb, (c) => {
        const config = {
          seed: c.seed,
          numInstances: c.numInstances,
          totalKVBlocks: 2000,
          routing: c.routing === 'weighted' ? { policy: c.routing, scorers: c.scorers } : { policy: c.routing },
          priority: { policy: c.priority },
          scheduler: { policy: c.scheduler },
          snapshotRefreshIntervalUs: c.refresh,
          flowControl: { enabled: c.flow },
          includeRequests: true,
          workload: { kind: 'synthetic' as const, rate: c.rate, numRequests: 40, promptTokens: 300, outputTokens: 40, prefixTokens: 64 },
        };
        expect(JSON.stringify(simulate(config))).toBe(JSON.stringify(simulate(config)));
      }),
      { numRuns: 25 },
    );
  });

  it('numInstances 1 gives exactly the single-instance result, whatever the router', () => {
    const oneArb = fc.record({
      kvBlocks: fc.integer({ min: 60, max: 400 }),
      maxNumSeqs: fc.integer({ min: 1, max: 16 }),
      budget: fc.integer({ min: 64, max: 2048 }),
      routing: fc.constantFrom(...ROUTERS),
      scheduler: fc.constantFrom(...SCHEDULERS),
      priority: fc.constantFrom(...PRIORITIES),
      preemption: fc.constantFrom('fcfs' as const, 'priority' as const),
      refresh: fc.constantFrom(0, 50_000),
    });
    fc.assert(
      fc.property(oneArb, workloadArb, (c, work) => {
        let t = 0;
        const specs = work.map((w, i) => {
          t += w.gap;
          return spec(i, t, w.input, w.output, { sloClass: w.cls, tenantId: w.tenant, blockHashes: hashesFor(w.input, `g${w.group}`, w.shared, `u${i}`) });
        });
        const sim = buildCluster(specs, {
          instances: 1,
          kvBlocks: c.kvBlocks,
          maxNumSeqs: c.maxNumSeqs,
          budget: c.budget,
          routing: c.routing,
          scheduler: c.scheduler,
          priority: c.priority,
          preemption: c.preemption,
          setup: { snapshotRefreshIntervalUs: c.refresh },
        });
        sim.run();
        const cluster = buildResult(sim, { sloTtftUs: 0, sloE2eUs: 0, includeRequests: true });
        const ctx = policyContext();
        const single = runInstance(
          {
            index: 0,
            id: 'instance_0',
            latency: LLAMA8B,
            totalKVBlocks: c.kvBlocks,
            blockSizeTokens: 16,
            maxNumSeqs: c.maxNumSeqs,
            maxNumBatchedTokens: c.budget,
            longPrefillTokenThreshold: 0,
            scheduler: createScheduler(c.scheduler, ctx),
            priority: createPriorityPolicy(c.priority, ctx),
            preemptionPolicy: c.preemption,
            checkInvariants: true,
          },
          new ArrayRequestSource(specs),
        );
        const m = single.instance.metrics;
        expect(cluster.completed_requests).toBe(m.completed);
        expect(cluster.dropped_unservable).toBe(m.dropped);
        expect(cluster.preemption_count).toBe(m.preemptions);
        expect(cluster.vllm_estimated_duration_s).toBe(single.endUs / 1e6);
        const expected = new Map<string, [number, number]>();
        for (let i = 0; i < m.completed; i++) expected.set(String(m.requestIndex.get(i)), [m.ttftUs.get(i), m.e2eUs.get(i)]);
        const actual = new Map(cluster.requests!.map((q) => [q.request_id, [Math.round(q.ttft_ms * 1000), Math.round(q.e2e_ms * 1000)]]));
        expect(actual).toEqual(expected);
      }),
      { numRuns: 120 },
    );
  });

  // The smallest case of a livelock this suite's generators found: with priority preemption and
  // the ageing slo-based priority, running requests kept the score they were queued with while
  // waiting ones were re-scored each step, so two requests evicted each other forever. Fixed in
  // the engine (victims are now chosen on scores taken at one instant).
  it('priority preemption with slo-based priority terminates (two long requests, 40 blocks)', () => {
    // 40 blocks hold either long request alone, not both; both arrive at t=0.
    const specs = [spec(0, 0, 225, 97), spec(1, 0, 258, 112), spec(2, 0, 16, 0), spec(3, 0, 16, 0)];
    let steps = 0;
    const sim = buildCluster(specs, {
      kvBlocks: 40,
      maxNumSeqs: 2,
      budget: 64,
      preemption: 'priority',
      priority: 'slo-based',
      setup: {
        observer: {
          onStep() {
            if (++steps > 20_000) throw new Error('livelock: 20,000 steps for 4 requests');
          },
        },
      },
    });
    sim.run();
    expect(sim.counters.completed).toBe(4);
  });
});
