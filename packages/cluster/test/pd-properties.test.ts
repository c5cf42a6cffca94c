import { ArrayRequestSource, InvariantViolation, RequestPart, type RequestSpec, type SimRequest, makeRequestSpec } from '@blis/engine';
import type { LatencyModel } from '@blis/latency';
import type { RouterState, RoutingDecision } from '@blis/policies';
import type { DecisionObserver, PdTransferRecord } from '@blis/trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, type SimulationResult, simulate } from '../src/index.js';
import { LLAMA8B, blackbox, hashesFor } from './helpers.js';

// Prefill/decode disaggregation on generated topologies (BLIS's validity rules, some instances
// in no pool), workloads, deciders, transfer links and routers, every run with checkInvariants
// (INV-1, INV-PD-2, INV-PD-3, INV-PD-4 checked by the simulator itself). An observer checks
// INV-PD-2 and INV-PD-4 again from the outside, and the result is checked for INV-1, INV-PD-3,
// INV-PD-6, the decider's bookkeeping and determinism. BLIS_PROPERTY_RUNS scales the cases;
// BLIS_PROPERTY_SEED replays a failing seed (printed on failure).

const RUNS = Number(process.env.BLIS_PROPERTY_RUNS ?? 150);
const SEED = process.env.BLIS_PROPERTY_SEED !== undefined ? Number(process.env.BLIS_PROPERTY_SEED) : Date.now() | 0;

/** Runs a property with the file's seed, printing it when the property fails. */
function check<T>(name: string, arb: fc.Arbitrary<T>, predicate: (v: T) => void, numRuns: number): void {
  const params = { numRuns, seed: SEED };
  try {
    fc.assert(fc.property(arb, predicate), params);
  } catch (e) {
    console.error(`pd-properties "${name}": fast-check seed ${params.seed} (BLIS_PROPERTY_SEED=${params.seed} to replay)`);
    throw e;
  }
}

type Pool = 'prefill' | 'decode' | 'shared' | 'unassigned';
const servesPrefill = (p: Pool) => p === 'prefill' || p === 'shared';
const servesDecode = (p: Pool) => p === 'decode' || p === 'shared';

/** BLIS's rules: counts >= 0; without shared pods both P and D > 0; P + D + S <= N. */
const topologyArb = fc
  .record({ p: fc.integer({ min: 0, max: 3 }), d: fc.integer({ min: 0, max: 3 }), s: fc.integer({ min: 0, max: 3 }), extra: fc.integer({ min: 0, max: 2 }) })
  .filter((t) => t.s > 0 || (t.p > 0 && t.d > 0));

function layoutOf(t: { p: number; d: number; s: number; extra: number }): Pool[] {
  const n = t.p + t.d + t.s + t.extra;
  return Array.from({ length: n }, (_, i) => (i < t.p ? 'prefill' : i < t.p + t.d ? 'decode' : i < t.p + t.d + t.s ? 'shared' : 'unassigned'));
}

const workloadArb = fc.array(
  fc.record({
    gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 40_000 })),
    input: fc.oneof({ weight: 12, arbitrary: fc.integer({ min: 1, max: 1200 }) }, { weight: 1, arbitrary: fc.constant(0) }),
    output: fc.integer({ min: 0, max: 50 }),
    group: fc.integer({ min: 0, max: 3 }),
    shared: fc.integer({ min: 0, max: 60 }),
    tenant: fc.constantFrom('a', 'b'),
    timeout: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 400_000 }) }),
  }),
  { minLength: 20, maxLength: 80 },
);
type Work = typeof workloadArb extends fc.Arbitrary<infer T> ? T : never;

const SCORERS = ['active-requests', 'kv-utilization', 'load-aware', 'load-balance', 'precise-prefix-cache', 'prefix-affinity', 'queue-depth', 'running-requests'] as const;
const scorersArb = fc.uniqueArray(fc.record({ name: fc.constantFrom(...SCORERS), weight: fc.integer({ min: 1, max: 5 }) }), { selector: (s) => s.name, minLength: 1, maxLength: 3 });

/** LLAMA8B's blackbox, or one with an output-token time and a post-decode overhead. */
const LATENCIES: Record<string, LatencyModel> = {
  llama8b: LLAMA8B,
  alpha2: { ...blackbox([2000, 1, 700], [5000, 20, 300]), postDecodeFixedOverhead: () => 1500 },
};

const configArb = fc.record({
  topology: topologyArb,
  kvBlocks: fc.oneof(fc.integer({ min: 20, max: 200 }), fc.integer({ min: 200, max: 1200 })),
  maxNumSeqs: fc.integer({ min: 1, max: 32 }),
  budget: fc.integer({ min: 64, max: 2048 }),
  routing: fc.oneof(
    fc.constantFrom('round-robin', 'least-loaded', 'prefix-aware').map((policy) => ({ policy })),
    scorersArb.map((scorers) => ({ policy: 'weighted', scorers })),
  ),
  decider: fc.oneof(
    fc.constantFrom('never', 'always').map((decider) => ({ decider })),
    fc.integer({ min: 0, max: 400 }).map((prefixThreshold) => ({ decider: 'prefix-threshold', prefixThreshold })),
  ),
  contention: fc.boolean(),
  bandwidth: fc.constantFrom(0.5, 2, 10, 25, 100),
  baseMs: fc.constantFrom(0, 0.05, 1),
  prefillScorers: fc.option(scorersArb, { nil: undefined }),
  decodeScorers: fc.option(scorersArb, { nil: undefined }),
  prefillMaxLen: fc.constantFrom(0, 0, 0, 700),
  decodeMaxLen: fc.constantFrom(0, 0, 0, 900),
  cacheDelay: fc.constantFrom(0, 50_000),
  refresh: fc.constantFrom(0, 1_000, 50_000),
  admissionLatency: fc.constantFrom(0, 0, 500),
  routingLatency: fc.constantFrom(0, 0, 2_000),
  flow: fc.boolean(),
  latency: fc.constantFrom(...Object.keys(LATENCIES)),
});
type Cfg = typeof configArb extends fc.Arbitrary<infer T> ? T : never;

function specsOf(work: Work): RequestSpec[] {
  let t = 0;
  return work.map((w, i) => {
    t += w.gap;
    return makeRequestSpec({
      index: i,
      id: `req-${i}`,
      arrivalUs: t,
      inputTokens: w.input,
      outputTokens: w.output,
      tenantId: w.tenant,
      prefixGroup: `g${w.group}`,
      blockHashes: hashesFor(w.input, `g${w.group}`, w.shared, `u${i}`),
      deadlineUs: w.timeout > 0 ? t + w.timeout : 0,
    });
  });
}

function configOf(cfg: Cfg, pd: boolean, horizonUs?: number): SimulationConfigInput {
  const t = cfg.topology;
  return {
    numInstances: t.p + t.d + t.s + t.extra,
    model: 'meta-llama/llama-3.1-8b-instruct',
    tp: 1,
    totalKVBlocks: cfg.kvBlocks,
    maxNumSeqs: cfg.maxNumSeqs,
    maxNumBatchedTokens: cfg.budget,
    routing: cfg.routing,
    cacheSignalDelayUs: cfg.cacheDelay,
    snapshotRefreshIntervalUs: cfg.refresh,
    admissionLatencyUs: cfg.admissionLatency,
    routingLatencyUs: cfg.routingLatency,
    flowControl: { enabled: cfg.flow },
    checkInvariants: true,
    includeRequests: true,
    ...(horizonUs !== undefined ? { horizonUs } : {}),
    ...(pd
      ? {
          pd: {
            prefillInstances: t.p,
            decodeInstances: t.d,
            prefillDecodeInstances: t.s,
            ...cfg.decider,
            transferContention: cfg.contention,
            transferBandwidthGBps: cfg.bandwidth,
            transferBaseLatencyMs: cfg.baseMs,
            ...(cfg.prefillScorers !== undefined ? { prefillRoutingScorers: cfg.prefillScorers } : {}),
            ...(cfg.decodeScorers !== undefined ? { decodeRoutingScorers: cfg.decodeScorers } : {}),
            prefill: { maxModelLen: cfg.prefillMaxLen },
            decode: { maxModelLen: cfg.decodeMaxLen },
          },
        }
      : {}),
  };
}

/**
 * INV-PD-2 and INV-PD-4 from the decision hooks: which pod gets which part, and that every
 * transfer follows its parent's prefill routing and its prefill part's last step, and precedes
 * its decode part and its completion. Also a livelock guard.
 */
class PdMonitor implements DecisionObserver {
  readonly layout: readonly Pool[];
  decisions = 0;
  split = 0;
  local = 0;
  readonly splitIds = new Set<string>();
  readonly decodePick = new Map<string, number>();
  readonly prefillRoutedAt = new Map<string, number>();
  readonly prefillScheduledAt = new Map<string, number>();
  readonly transferEnd = new Map<string, number>();
  readonly transfers: PdTransferRecord[] = [];
  readonly completed = new Map<string, number>();
  readonly left = new Map<string, string>();
  private steps = 0;

  constructor(layout: readonly Pool[]) {
    this.layout = layout;
  }

  private fail(inv: string, msg: string): never {
    throw new InvariantViolation(inv, msg);
  }
  private placed(r: SimRequest, instance: number, what: string) {
    const pool = this.layout[instance];
    const ok = r.part === RequestPart.Prefill ? servesPrefill(pool) : servesDecode(pool);
    if (!ok) this.fail('INV-PD-2', `${what}: ${r.spec.id} (part ${r.part}) on instance ${instance}, a ${pool} pod`);
  }
  private parentId(r: SimRequest): string {
    return r.spec.id.replace(/_(prefill|decode)$/, '');
  }

  onDisaggregation(r: SimRequest, d: { disaggregate: boolean }, decodeInstance: number) {
    this.decisions++;
    if (!servesDecode(this.layout[decodeInstance])) this.fail('INV-PD-2', `decode pod ${decodeInstance} of ${r.spec.id} is a ${this.layout[decodeInstance]} pod`);
    if (d.disaggregate && r.inputTokens > 0) {
      this.split++;
      this.splitIds.add(r.spec.id);
      this.decodePick.set(r.spec.id, decodeInstance);
    } else this.local++;
  }
  onRouting(r: SimRequest, _d: RoutingDecision, state: RouterState) {
    const decodePool = this.layout.filter(servesDecode).length;
    if (state.instances.length !== decodePool) this.fail('INV-PD-2', `${r.spec.id} routed over ${state.instances.length} pods, the decode pool has ${decodePool}`);
  }
  onPrefillRouting(r: SimRequest, _d: RoutingDecision, state: RouterState, now: number) {
    const prefillPool = this.layout.filter(servesPrefill).length;
    if (state.instances.length !== prefillPool) this.fail('INV-PD-2', `prefill of ${r.spec.id} routed over ${state.instances.length} pods, the prefill pool has ${prefillPool}`);
    if (!this.splitIds.has(r.spec.id)) this.fail('INV-PD-4', `prefill routing of ${r.spec.id}, which was not split`);
    this.prefillRoutedAt.set(r.spec.id, now);
  }
  onQueued(r: SimRequest, _now: number, instance: number) {
    this.placed(r, instance, 'queued');
  }
  onScheduled(r: SimRequest, now: number, instance: number) {
    this.placed(r, instance, 'scheduled');
    const id = this.parentId(r);
    if (r.part === RequestPart.Prefill) {
      if (r.spec.id !== `${id}_prefill`) this.fail('INV-PD-6', `prefill part named ${r.spec.id}`);
      this.prefillScheduledAt.set(id, now);
    } else if (r.part === RequestPart.Decode) {
      const end = this.transferEnd.get(id);
      if (end === undefined || now < end) this.fail('INV-PD-4', `decode part of ${id} scheduled at ${now}, its transfer ends at ${end}`);
      if (instance !== this.decodePick.get(id)) this.fail('INV-PD-2', `decode part of ${id} on ${instance}, its decode pod is ${this.decodePick.get(id)}`);
    } else if (this.splitIds.has(r.spec.id)) this.fail('INV-PD-2', `${r.spec.id} was split but runs whole`);
  }
  onPdTransfer(rec: PdTransferRecord, now: number) {
    const id = rec.requestId;
    this.transfers.push(rec);
    const routed = this.prefillRoutedAt.get(id);
    const sched = this.prefillScheduledAt.get(id);
    if (routed === undefined || rec.startUs < routed) this.fail('INV-PD-4', `transfer of ${id} starts at ${rec.startUs}, its prefill was routed at ${routed}`);
    // The transfer starts when the last prefill step ends, and every step takes at least 1 µs.
    if (sched === undefined || rec.startUs <= sched) this.fail('INV-PD-4', `transfer of ${id} starts at ${rec.startUs}, its prefill was last scheduled at ${sched}`);
    if (rec.durationUs < 1 || now !== rec.startUs + rec.durationUs) this.fail('INV-PD-4', `transfer of ${id}: start ${rec.startUs} + ${rec.durationUs} reported at ${now}`);
    if (!servesPrefill(this.layout[rec.prefillInstance]) || !servesDecode(this.layout[rec.decodeInstance]))
      this.fail('INV-PD-2', `transfer of ${id} from ${this.layout[rec.prefillInstance]} pod to ${this.layout[rec.decodeInstance]} pod`);
    if (rec.decodeInstance !== this.decodePick.get(id)) this.fail('INV-PD-2', `transfer of ${id} to ${rec.decodeInstance}, its decode pod is ${this.decodePick.get(id)}`);
    if (this.transferEnd.has(id)) this.fail('INV-PD-3', `second transfer for ${id}`);
    this.transferEnd.set(id, now);
  }
  onCompleted(r: SimRequest, now: number) {
    if (r.part !== RequestPart.Whole) this.fail('INV-PD-6', `completion reported for part ${r.spec.id}`);
    if (this.completed.has(r.spec.id) || this.left.has(r.spec.id)) this.fail('INV-1', `${r.spec.id} ended twice`);
    if (this.splitIds.has(r.spec.id)) {
      const end = this.transferEnd.get(r.spec.id);
      if (end === undefined || now <= end) this.fail('INV-PD-4', `${r.spec.id} completed at ${now}, its transfer ended at ${end}`);
    }
    this.completed.set(r.spec.id, now);
  }
  onDropped(r: SimRequest, _now: number, reason: string) {
    if (r.part !== RequestPart.Whole) this.fail('INV-PD-6', `drop reported for part ${r.spec.id}`);
    if (this.completed.has(r.spec.id) || this.left.has(r.spec.id)) this.fail('INV-1', `${r.spec.id} ended twice`);
    this.left.set(r.spec.id, reason);
  }
  onStep() {
    // A livelock shows up as a failing case with its seed instead of a hung test run.
    if (++this.steps > 20_000) throw new Error('over 20,000 steps for at most 80 requests: livelock?');
  }
}

function run(cfg: Cfg, work: Work, monitor?: DecisionObserver, pd = true, horizonUs?: number): SimulationResult {
  return simulate(configOf(cfg, pd, horizonUs), { latency: LATENCIES[cfg.latency], source: new ArrayRequestSource(specsOf(work)), ...(monitor ? { observer: monitor } : {}) });
}

const us = (ms: number) => Math.round(ms * 1000);

describe('P/D properties', () => {
  it('INV-1, INV-PD-2/3/4/6, decider bookkeeping and determinism hold on generated P/D clusters', () => {
    check(
      'invariants',
      fc.tuple(configArb, workloadArb),
      ([cfg, work]) => {
        const layout = layoutOf(cfg.topology);
        const monitor = new PdMonitor(layout);
        const r = run(cfg, work, monitor);
        const n = work.length;
        const pd = r.pd!;

        // INV-1, from the result: every injected request is accounted for, none is left.
        expect(r.injected_requests).toBe(n);
        expect(r.completed_requests + r.dropped_unservable + r.timed_out_requests + r.rejected_requests + r.still_queued + r.still_running).toBe(n);
        expect(r.still_queued + r.still_running).toBe(0);
        expect(monitor.completed.size).toBe(r.completed_requests);
        expect(monitor.completed.size + monitor.left.size).toBe(n);

        // INV-PD-3: no horizon cut a transfer off.
        expect(pd.transfers_initiated).toBe(pd.transfers_completed);
        expect(pd.transfers_initiated).toBe(pd.disaggregated_requests + pd.dropped_at_decode_kv);

        // The decider's bookkeeping: every routed request was decided once, local or split; a
        // split one reached its decode pod (one transfer record), or was lost on the way.
        // Split parents whose KV never reached the decode pod were dropped there (at the KV
        // reservation) or lost in prefill (dropped or timed out); none completed.
        const routed = n - r.rejected_requests;
        expect(monitor.decisions).toBe(routed);
        expect(monitor.local + monitor.split).toBe(routed);
        expect(pd.local_requests).toBe(monitor.local);
        expect(pd.disaggregated_requests).toBe(monitor.transfers.length);
        const neverArrived = monitor.split - pd.disaggregated_requests;
        expect(neverArrived).toBeGreaterThanOrEqual(pd.dropped_at_decode_kv);
        for (const id of monitor.splitIds) if (!monitor.transferEnd.has(id)) expect(monitor.left.has(id), `${id} split, never transferred, yet not dropped`).toBe(true);
        expect(pd.dropped_at_decode_kv).toBeLessThanOrEqual(r.dropped_unservable);
        if (r.dropped_unservable === 0 && r.timed_out_requests === 0) expect(pd.disaggregated_requests + pd.local_requests).toBe(routed);
        if (cfg.decider.decider === 'never') expect(pd.transfers_initiated).toBe(0);

        // INV-PD-2 in the result: pods in no pool got nothing; each block names its pool.
        expect(r.instances.map((b) => b.pool)).toEqual(layout);
        layout.forEach((p, i) => {
          if (p === 'unassigned') {
            expect(r.target_distribution[`instance_${i}`]).toBe(0);
            expect(r.instances[i].completed_requests).toBe(0);
          }
        });

        // INV-PD-6: per-request records are the parents', under workload ids, once each.
        const ids = r.requests!.map((q) => q.request_id);
        expect(ids).toHaveLength(r.completed_requests);
        expect(new Set(ids).size).toBe(ids.length);
        const workloadIds = new Set(work.map((_, i) => `req-${i}`));
        for (const id of ids) {
          expect(id).not.toMatch(/_(prefill|decode)$/);
          expect(workloadIds.has(id)).toBe(true);
        }
        // INV-PD-4 in the reported numbers: a disaggregated parent's first token comes after its
        // transfer ends (its first decode step takes at least 1 µs).
        const arrival = new Map(specsOf(work).map((s) => [s.id, s.arrivalUs]));
        for (const q of r.requests!) {
          expect(q.e2e_ms).toBeGreaterThanOrEqual(q.ttft_ms);
          const end = monitor.transferEnd.get(q.request_id);
          if (end !== undefined) expect(us(q.ttft_ms)).toBeGreaterThan(end - arrival.get(q.request_id)!);
        }

        // Determinism: the same inputs give the same result JSON.
        expect(JSON.stringify(run(cfg, work))).toBe(JSON.stringify(r));
      },
      RUNS,
    );
  });

  it('never on all-shared pods is the monolithic run once pd and the pools are removed', () => {
    // Pool scorers and context windows would change the decode pool's routing and pods: none.
    const sharedArb = configArb.map((c) => ({
      ...c,
      topology: { p: 0, d: 0, s: c.topology.p + c.topology.d + c.topology.s, extra: 0 },
      decider: { decider: 'never' as const },
      prefillScorers: undefined,
      decodeScorers: undefined,
      prefillMaxLen: 0 as const,
      decodeMaxLen: 0 as const,
    }));
    check(
      'never = monolithic',
      fc.tuple(sharedArb, workloadArb),
      ([cfg, work]) => {
        const mono = run(cfg, work, undefined, false);
        const pd = run(cfg, work);
        expect(pd.pd!.local_requests).toBe(work.length - pd.rejected_requests);
        const stripped: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(pd)) if (k !== 'pd') stripped[k] = k === 'instances' ? pd.instances.map(({ pool: _p, ...b }) => b) : v;
        expect(JSON.stringify(stripped)).toBe(JSON.stringify(mono));
      },
      Math.max(10, Math.round(RUNS / 3)),
    );
  });

  it('INV-1 holds when a horizon cuts the run off mid-transfer', () => {
    check(
      'horizon',
      fc.tuple(configArb, workloadArb, fc.integer({ min: 1, max: 400_000 })),
      ([cfg, work, horizon]) => {
        const r = run(cfg, work, new PdMonitor(layoutOf(cfg.topology)), true, horizon);
        // Arrivals after the horizon are never injected.
        expect(r.injected_requests).toBe(specsOf(work).filter((s) => s.arrivalUs <= horizon).length);
        expect(r.completed_requests + r.dropped_unservable + r.timed_out_requests + r.rejected_requests + r.still_queued + r.still_running).toBe(r.injected_requests);
        expect(r.pd!.transfers_completed).toBeLessThanOrEqual(r.pd!.transfers_initiated);
      },
      Math.max(10, Math.round(RUNS / 3)),
    );
  });
});
