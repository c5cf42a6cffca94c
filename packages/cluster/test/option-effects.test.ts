import { ArrayRequestSource, type RequestSpec } from '@blis/engine';
import { goSubsystemRand } from '@blis/workload/internal';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, type SimulationResult, simulate } from '../src/index.js';
import { hashesFor, spec } from './helpers.js';

// Every cluster option of `blis run` changes behaviour: each test runs `simulate()` (the library
// entry the CLI calls) on a small workload built so that the option matters, and checks the
// result against the default in the direction the option promises. The CLI flag each config
// field comes from is named in the test title.

// Blackbox: the tests reason with its numbers (e.g. the 10.3 ms queueing delay of llama-3.1-8b on H100).
const BASE = { latencyModel: 'blackbox', totalKVBlocks: 5000, checkInvariants: true, includeRequests: true } as const;

function run(cfg: SimulationConfigInput, specs: readonly RequestSpec[]): SimulationResult {
  return simulate({ ...BASE, ...cfg }, { source: new ArrayRequestSource(specs) });
}

const records = (r: SimulationResult) => r.requests ?? [];
const handledBy = (r: SimulationResult) => new Map(records(r).map((x) => [x.request_id, x.handled_by]));
const distribution = (r: SimulationResult) => Object.values(r.target_distribution);
/** Request ids in the order their (last) admission into a batch happened. */
const scheduleOrder = (r: SimulationResult) =>
  [...records(r)].sort((a, b) => a.arrival_ms + a.scheduling_delay_ms - (b.arrival_ms + b.scheduling_delay_ms)).map((x) => Number(x.request_id));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Low load: 10 requests a second apart on one instance, so nothing ever queues. */
const LOW = Array.from({ length: 10 }, (_, i) => spec(i, i * 1_000_000, 200, 10));

/** One long request on instance 0, then short ones every 200 ms (each done in ~100 ms). */
const LONG_THEN_SHORT = [spec(0, 0, 8000, 2000), ...Array.from({ length: 20 }, (_, i) => spec(i + 1, 100_000 + i * 200_000, 300, 20))];

/** 130 requests in 13 prefix groups (28 shared blocks each); group k is also session s<k>. */
const SHARED = Array.from({ length: 130 }, (_, i) => {
  const k = (i * 7919) % 13; // scattered, so round-robin does not line groups up with instances
  const n = 512 + (i % 7) * 16;
  return spec(i, i * 20_000, n, 16, { prefixGroup: `g${k}`, sessionId: `s${k}`, blockHashes: hashesFor(n, `g${k}`, 28, `u${i}`) });
});

/** Overload on 2 instances: 60 requests of 1000 prompt tokens, 2 ms apart; every third is critical. */
const BURST = Array.from({ length: 60 }, (_, i) => spec(i, i * 2000, 1000, 40, { sloClass: i % 3 === 0 ? 'critical' : 'batch' }));

/**
 * One instance running one request at a time: request 0 starts alone, 1..6 queue behind it
 * (10 µs apart) with these classes and prompt lengths, so every scheduler orders them visibly.
 */
const QUEUE_CLASSES = ['batch', 'batch', 'critical', 'standard', 'batch', 'critical', 'sheddable'];
const QUEUE_INPUTS = [400, 1200, 800, 200, 100, 600, 300];
const QUEUE = QUEUE_CLASSES.map((c, i) => spec(i, i * 10, QUEUE_INPUTS[i], 4, { sloClass: c }));

describe('--admission-latency and --routing-latency', () => {
  const base = run({}, LOW);

  it('--admission-latency 5000 adds exactly 5 ms to every TTFT and E2E at low load', () => {
    const r = run({ admissionLatencyUs: 5000 }, LOW);
    expect(r.ttft_mean_ms).toBeCloseTo(base.ttft_mean_ms + 5, 9);
    expect(r.e2e_mean_ms).toBeCloseTo(base.e2e_mean_ms + 5, 9);
    expect(r.completed_requests).toBe(10);
  });

  it('--routing-latency 7000 adds exactly 7 ms, and both add up', () => {
    expect(run({ routingLatencyUs: 7000 }, LOW).ttft_mean_ms).toBeCloseTo(base.ttft_mean_ms + 7, 9);
    expect(run({ admissionLatencyUs: 5000, routingLatencyUs: 7000 }, LOW).ttft_mean_ms).toBeCloseTo(base.ttft_mean_ms + 12, 9);
  });
});

describe('--snapshot-refresh-interval', () => {
  it('stale KV utilisation makes least-kv pile everything onto the first instance', () => {
    // Four long requests 50 ms apart. Read live (0), each one sees its predecessors' KV and
    // goes elsewhere; read once every 10 s, all four see the t=0 picture (all empty) and take
    // the lowest index.
    const specs = Array.from({ length: 4 }, (_, i) => spec(i, i * 50_000, 4000, 200));
    const live = run({ numInstances: 4, routing: { policy: 'least-kv' }, snapshotRefreshIntervalUs: 0 }, specs);
    const stale = run({ numInstances: 4, routing: { policy: 'least-kv' }, snapshotRefreshIntervalUs: 10_000_000 }, specs);
    expect(distribution(live)).toEqual([1, 1, 1, 1]);
    expect(distribution(stale)).toEqual([4, 0, 0, 0]);
  });
});

describe('--cache-signal-delay', () => {
  // Four requests with the same 4,000-token prompt, 15 ms apart, load signals live. Request 0
  // finds four idle, empty instances: every score ties, and BLIS's router stream (seed 42)
  // draws the instance. It reaches that instance's queue after the 10.3 ms queueing delay and
  // claims its blocks. Live cache signals (0): from the second request on, that instance holds
  // the prompt and precise-prefix-cache (weight 2) sends all four there. With BLIS's 50 ms
  // delay the router's view of the caches (empty at t = 0) is not refreshed before 50 ms: every
  // cache scores alike, and so does every waiting queue (each request goes straight into a
  // batch), so all four decisions are four-way ties and the router stream scatters them.
  const shared = Array.from({ length: 4 }, (_, i) => spec(i, i * 15_000, 4000, 50, { blockHashes: hashesFor(4000, 'sys', 250, `r${i}`) }));
  const routing = { policy: 'weighted', scorers: [{ name: 'precise-prefix-cache', weight: 2 }, { name: 'queue-depth', weight: 1 }] };
  const cfg = { numInstances: 4, routing, snapshotRefreshIntervalUs: 0 };
  /** The instances BLIS's router stream (seed 42, 'router') draws for `n` four-way ties. */
  const draws = (n: number) => {
    const g = goSubsystemRand(42n, 'router');
    return Array.from({ length: n }, () => `instance_${g.intn(4)}`);
  };
  const allOn = (id: string) => ['instance_0', 'instance_1', 'instance_2', 'instance_3'].map((x) => (x === id ? 4 : 0));
  const hits = (r: SimulationResult) => records(r).map((x) => x.cache_hit_blocks);
  const placed = (r: SimulationResult) => [0, 1, 2, 3].map((i) => handledBy(r).get(String(i)));

  it('0 reads the caches live; the 50 ms default hides what they gained since the last refresh', () => {
    const [first] = draws(1);
    const live = run({ ...cfg, cacheSignalDelayUs: 0 }, shared);
    expect(distribution(live)).toEqual(allOn(first));
    expect(hits(live)).toEqual([0, 250, 250, 250]);
    // Delayed: the cache signal never breaks the tie, each decision is a fresh draw, and the
    // requests at 15 and 30 ms land elsewhere and miss.
    const delayed = run(cfg, shared);
    expect(placed(delayed)).toEqual(draws(4));
    expect(distribution(delayed)).not.toEqual(allOn(first));
    const byId = new Map(records(delayed).map((x) => [x.request_id, x.cache_hit_blocks]));
    expect([byId.get('1'), byId.get('2')]).toEqual([0, 0]);
  });

  it('a refresh due by the time of a routing decision brings the view up to date', () => {
    // The same four, 60 ms apart: each decision comes after a due refresh and sees the cache of
    // the instance request 0 drew.
    const apart = shared.map((s, i) => ({ ...s, arrivalUs: i * 60_000 }));
    const r = run(cfg, apart);
    expect(distribution(r)).toEqual(allOn(draws(1)[0]));
    expect(hits(r)).toEqual([0, 250, 250, 250]);
  });

  it('does not touch routing that reads no cache', () => {
    const rr = { numInstances: 4, routing: { policy: 'least-loaded' } };
    expect(run({ ...rr, cacheSignalDelayUs: 0 }, shared)).toEqual(run(rr, shared));
  });
});

describe('--flow-control, its thresholds and --max-gateway-queue-depth', () => {
  const off = run({ numInstances: 2 }, BURST);
  const UTIL = { enabled: true, saturationDetector: 'utilization' } as const;
  const on = run({ numInstances: 2, flowControl: UTIL }, BURST);
  const delay = (r: SimulationResult) => r.gateway?.delay_mean_ms ?? Number.NaN;
  const strip = (r: SimulationResult) => ({ ...r, gateway: null, requests: r.requests?.map(({ gateway_delay_ms: _g, ...q }) => q) });

  it('--flow-control with BLIS\'s default detector (never) passes every request straight through', () => {
    const never = run({ numInstances: 2, flowControl: { enabled: true } }, BURST);
    expect(never.gateway).not.toBeNull();
    expect(delay(never)).toBe(0);
    expect(strip(never)).toEqual(strip(off));
  });

  it('--saturation-detector utilization holds requests at the gateway under overload', () => {
    expect(off.gateway).toBeNull();
    expect(on.gateway).not.toBeNull();
    expect(delay(on)).toBeGreaterThan(0);
    expect(on.completed_requests).toBe(60);
    // Waiting moves from the instances to the gateway: requests start later after routing.
    expect(on.scheduling_delay_p99_ms).toBeGreaterThan(off.scheduling_delay_p99_ms);
  });

  it('--queue-depth-threshold: a higher threshold holds less (50 never saturates)', () => {
    const q2 = run({ numInstances: 2, flowControl: { ...UTIL, queueDepthThreshold: 2 } }, BURST);
    const q50 = run({ numInstances: 2, flowControl: { ...UTIL, queueDepthThreshold: 50 } }, BURST);
    expect(delay(q2)).toBeGreaterThan(delay(on));
    expect(delay(on)).toBeGreaterThan(delay(q50));
    expect(delay(q50)).toBe(0);
  });

  it('--kv-cache-util-threshold: a lower threshold saturates on KV and holds more', () => {
    const kv = run({ numInstances: 2, flowControl: { ...UTIL, kvUtilizationThreshold: 0.01 } }, BURST);
    expect(delay(kv)).toBeGreaterThan(delay(on));
  });

  it('--saturation-detector concurrency holds by requests in flight (--max-concurrency)', () => {
    const c2 = run({ numInstances: 2, flowControl: { enabled: true, saturationDetector: 'concurrency', maxConcurrency: 2 } }, BURST);
    const c100 = run({ numInstances: 2, flowControl: { enabled: true, saturationDetector: 'concurrency', maxConcurrency: 100 } }, BURST);
    expect(delay(c2)).toBeGreaterThan(0);
    expect(delay(c100)).toBe(0);
  });

  it('saturationLimit (--saturation-limit): dispatching up to a higher saturation holds less', () => {
    const lim = run({ numInstances: 2, flowControl: { ...UTIL, saturationLimit: 3 } }, BURST);
    expect(delay(lim)).toBeLessThan(delay(on));
    expect(delay(lim)).toBeGreaterThan(0);
  });

  it('--max-gateway-queue-depth turns newcomers away from a full queue (0 = unbounded)', () => {
    const bounded = run({ numInstances: 2, flowControl: { ...UTIL, maxGatewayQueueDepth: 10 } }, BURST);
    expect(on.gateway?.shed_requests).toBe(0);
    expect(bounded.gateway?.queue_rejected).toBeGreaterThan(0);
    expect(bounded.gateway?.queue_shed).toBe(0);
    expect(bounded.rejected_requests).toBe(bounded.gateway?.shed_requests);
    expect(bounded.completed_requests + bounded.rejected_requests).toBe(60);
  });

  it('--queue-shedding: a full queue displaces sheddable (batch) requests for critical ones', () => {
    const bounded = run({ numInstances: 2, flowControl: { ...UTIL, maxGatewayQueueDepth: 10 } }, BURST);
    const shed = run({ numInstances: 2, flowControl: { ...UTIL, maxGatewayQueueDepth: 10, queueShedding: true } }, BURST);
    expect(shed.gateway?.queue_shed).toBeGreaterThan(0);
    expect(shed.completed_requests + shed.rejected_requests).toBe(60);
    expect(shed.per_slo_class.critical.completed_requests).toBeGreaterThan(bounded.per_slo_class.critical.completed_requests);
  });

  it('the saturation thresholds also drive slo-shed admission without --flow-control', () => {
    // slo-shed reads RouterState.saturation; before the fix the thresholds were ignored unless
    // flow control was on, so this run was identical to the default one.
    const shed = run({ numInstances: 2, admission: { policy: 'slo-shed' } }, BURST);
    const lenient = run({ numInstances: 2, admission: { policy: 'slo-shed' }, flowControl: { queueDepthThreshold: 50 } }, BURST);
    expect(shed.rejected_requests).toBeGreaterThan(0);
    expect(lenient.rejected_requests).toBe(0);
  });
});

describe('--token-bucket-capacity and --token-bucket-refill-rate', () => {
  // 40 requests of 500 input tokens, 100 ms apart. Between arrivals the bucket refills
  // rate * 0.1 s; each admission costs 500; a rejection costs nothing.
  const specs = Array.from({ length: 40 }, (_, i) => spec(i, i * 100_000, 500, 2));
  const tb = (params: Record<string, number>) => run({ admission: { policy: 'token-bucket', params } }, specs);

  it('defaults (10000 tokens, 1000/s) reject 13 of 40', () => {
    // Before request k (all earlier admitted): 10000 + 100k - 500k = 10000 - 400k >= 500 for
    // k <= 23, so 0..23 pass (24) leaving 300. Then +100 per gap: 400 (reject), 500 (admit -> 0),
    // 100, 200, 300, 400 (reject), 500 (admit): k = 25, 30, 35 pass. 24 + 3 = 27 admitted.
    const r = tb({});
    expect(r.rejected_requests).toBe(13);
    expect(r.completed_requests).toBe(27);
  });

  it('a smaller capacity rejects more; a larger one or a faster refill rejects none', () => {
    // capacity 2000: 2000 - 400k >= 500 for k <= 3 (4 pass, 300 left), then every fifth from
    // k = 5: 5, 10, ..., 35 (7 more). 11 admitted, 29 rejected.
    expect(tb({ capacity: 2000 }).rejected_requests).toBe(29);
    // capacity 20000: 20000 - 400k >= 500 for every k <= 39.
    expect(tb({ capacity: 20_000 }).rejected_requests).toBe(0);
    // refill 5000/s: +500 per gap pays for each request exactly.
    expect(tb({ refillRate: 5000 }).rejected_requests).toBe(0);
    // refill 2000/s (+200 per gap): 10000 - 300k >= 500 for k <= 31 (32 pass, 200 left); then
    // k=32: 400 reject, 33: 600 admit -> 100, 34: 300 reject, 35: 500 admit -> 0, 36: 200 and
    // 37: 400 reject, 38: 600 admit -> 100, 39: 300 reject. 35 admitted, 5 rejected.
    expect(tb({ refillRate: 2000 }).rejected_requests).toBe(5);
  });
});

describe('--admission-policy', () => {
  it('always-admit (default) admits everything; reject-all rejects everything', () => {
    expect(run({ numInstances: 2 }, BURST).rejected_requests).toBe(0);
    const r = run({ numInstances: 2, admission: { policy: 'reject-all' } }, BURST);
    expect(r.rejected_requests).toBe(60);
    expect(r.completed_requests).toBe(0);
    expect(distribution(r)).toEqual([0, 0]);
  });

  it('tenant-quota caps each tenant at its share of in-flight requests', () => {
    // 20 requests of each tenant at t = 0..39 µs, long enough that none completes during the
    // burst. Shares 0.25 and 0.75 of 8: tenant a keeps 2 in flight, tenant b 6.
    const specs = Array.from({ length: 40 }, (_, i) => spec(i, i, 500, 50, { tenantId: i % 2 === 0 ? 'a' : 'b' }));
    const r = run({ numInstances: 2, admission: { policy: 'tenant-quota', params: { maxInFlight: 8, quotas: { a: 0.25, b: 0.75 } } } }, specs);
    expect(r.per_tenant.a.completed_requests).toBe(2);
    expect(r.per_tenant.b.completed_requests).toBe(6);
    expect(r.rejected_requests).toBe(32);
  });

  it('slo-shed rejects sheddable classes first once the pool saturates', () => {
    const r = run({ numInstances: 2, admission: { policy: 'slo-shed' } }, BURST);
    expect(r.rejected_requests).toBeGreaterThan(0);
    expect(r.per_slo_class.critical.completed_requests).toBe(20);
    expect(r.per_slo_class.batch.completed_requests).toBeLessThan(40);
  });

  it('tier-shed and gaie-legacy also shed only the sheddable class', () => {
    for (const policy of ['tier-shed', 'gaie-legacy']) {
      const r = run({ numInstances: 2, admission: { policy } }, BURST);
      expect(r.rejected_requests, policy).toBeGreaterThan(0);
      expect(r.per_slo_class.critical.completed_requests, policy).toBe(20);
    }
  });
});

describe('--priority-policy and --scheduler', () => {
  const order = (scheduler: string, priority = 'constant') => scheduleOrder(run({ maxNumSeqs: 1, scheduler: { policy: scheduler }, priority: { policy: priority } }, QUEUE));
  const FCFS = [0, 1, 2, 3, 4, 5, 6];
  const LIFO = [0, 6, 5, 4, 3, 2, 1];

  it('fcfs (default) keeps arrival order whatever the priorities', () => {
    for (const p of ['constant', 'slo-class', 'slo-based', 'inverted-slo']) expect(order('fcfs', p), p).toEqual(FCFS);
  });
  it('sjf serves the shortest prompts first and lowers the mean TTFT', () => {
    // Prompts 1..6: 1200, 800, 200, 100, 600, 300.
    expect(order('sjf')).toEqual([0, 4, 3, 6, 5, 2, 1]);
    const ttft = (s: string) => run({ maxNumSeqs: 1, scheduler: { policy: s } }, QUEUE).ttft_mean_ms;
    expect(ttft('sjf')).toBeLessThan(ttft('fcfs'));
  });
  it('priority-fcfs with slo-class: critical, then standard, then batch, then sheddable', () => {
    expect(order('priority-fcfs', 'slo-class')).toEqual([0, 2, 5, 3, 1, 4, 6]);
    const r = run({ maxNumSeqs: 1, scheduler: { policy: 'priority-fcfs' }, priority: { policy: 'slo-class' } }, QUEUE);
    const f = run({ maxNumSeqs: 1 }, QUEUE);
    expect(r.per_slo_class.critical.ttft_mean_ms).toBeLessThan(f.per_slo_class.critical.ttft_mean_ms);
  });
  it('reverse-priority with slo-class inverts it', () => {
    expect(order('reverse-priority', 'slo-class')).toEqual([0, 6, 1, 4, 3, 2, 5]);
  });
  it('constant priority makes the priority schedulers plain fcfs', () => {
    expect(order('priority-fcfs')).toEqual(FCFS);
    expect(order('reverse-priority')).toEqual(FCFS);
  });
  it('inverted-slo serves the youngest first under priority-fcfs', () => {
    expect(order('priority-fcfs', 'inverted-slo')).toEqual(LIFO);
    expect(order('reverse-priority', 'inverted-slo')).toEqual(FCFS); // two inversions cancel
  });
  it('slo-based (age) is arrival order under priority-fcfs by design, and LIFO when reversed', () => {
    // Older requests have higher age priority, which is exactly arrival order.
    expect(order('priority-fcfs', 'slo-based')).toEqual(FCFS);
    expect(order('reverse-priority', 'slo-based')).toEqual(LIFO);
  });
});

describe('--preemption-policy', () => {
  it('priority evicts the least urgent running request instead of the newest', () => {
    // 24 KV blocks; three 96-token prompts (6 blocks) decoding 120 tokens each cannot all fit.
    // The critical request is the newest, so fcfs preempts it; priority preempts a batch one.
    const specs = [spec(0, 0, 96, 120, { sloClass: 'batch' }), spec(1, 10, 96, 120, { sloClass: 'batch' }), spec(2, 20, 96, 120, { sloClass: 'critical' })];
    const preemptions = (p: 'fcfs' | 'priority') => {
      const r = run({ totalKVBlocks: 24, priority: { policy: 'slo-class' }, preemptionPolicy: p }, specs);
      expect(r.preemption_count).toBeGreaterThan(0);
      return new Map(records(r).map((x) => [x.request_id, x.preemptions]));
    };
    expect(preemptions('fcfs').get('2')).toBeGreaterThan(0);
    expect(preemptions('priority').get('2')).toBe(0);
  });
});

describe('--routing-policy', () => {
  const rr = run({ numInstances: 2 }, LONG_THEN_SHORT);
  const shortTtft = (r: SimulationResult) => mean(records(r).filter((x) => x.request_id !== '0').map((x) => x.ttft_ms));

  it('round-robin (default) alternates regardless of load', () => {
    expect(distribution(rr)).toEqual([11, 10]);
  });
  it('least-loaded and least-kv keep the short requests off the busy instance', () => {
    for (const policy of ['least-loaded', 'least-kv']) {
      const r = run({ numInstances: 2, routing: { policy } }, LONG_THEN_SHORT);
      expect(distribution(r), policy).toEqual([1, 20]);
      expect(shortTtft(r), policy).toBeLessThan(shortTtft(rr));
    }
  });
  it('always-busiest sends everything to one instance', () => {
    const r = run({ numInstances: 2, routing: { policy: 'always-busiest' } }, LONG_THEN_SHORT);
    expect(distribution(r)).toEqual([21, 0]);
    expect(shortTtft(r)).toBeGreaterThan(shortTtft(rr));
  });
  it('cost-escalation charges the instance under KV pressure more, so it gets fewer requests', () => {
    // 800 blocks: the long request holds over half of instance 0's cache.
    const r = run({ numInstances: 2, totalKVBlocks: 800, routing: { policy: 'cost-escalation' } }, LONG_THEN_SHORT);
    const base = run({ numInstances: 2, totalKVBlocks: 800 }, LONG_THEN_SHORT);
    expect(distribution(r)[0]).toBeLessThan(distribution(base)[0]);
  });

  const rrShared = run({ numInstances: 4 }, SHARED);
  it.each(['weighted', 'prefix-aware', 'prefix-overlap', 'session-affinity'])('%s raises the cache hit rate over round-robin on shared prefixes', (policy) => {
    const r = run({ numInstances: 4, routing: { policy } }, SHARED);
    expect(r.cache_hit_rate).toBeGreaterThan(rrShared.cache_hit_rate);
  });
  it('session-affinity keeps every session on one instance; round-robin scatters them', () => {
    const sessionsOn = (r: SimulationResult) => {
      const by = handledBy(r);
      const homes = new Map<string, Set<string>>();
      for (const s of SHARED) {
        const set = homes.get(s.sessionId) ?? new Set<string>();
        set.add(by.get(s.id)!);
        homes.set(s.sessionId, set);
      }
      return [...homes.values()].map((h) => h.size);
    };
    expect(Math.max(...sessionsOn(run({ numInstances: 4, routing: { policy: 'session-affinity' } }, SHARED)))).toBe(1);
    expect(Math.max(...sessionsOn(rrShared))).toBeGreaterThan(1);
  });
  it('--routing-scorers change what weighted optimises', () => {
    // Load only: prefix groups are ignored and the hit rate falls back to round-robin's level.
    const loadOnly = run({ numInstances: 4, routing: { policy: 'weighted', scorers: [{ name: 'queue-depth', weight: 1 }] } }, SHARED);
    const affinity = run({ numInstances: 4, routing: { policy: 'weighted', scorers: [{ name: 'prefix-affinity', weight: 5 }, { name: 'queue-depth', weight: 1 }] } }, SHARED);
    expect(affinity.cache_hit_rate).toBeGreaterThan(loadOnly.cache_hit_rate);
  });
});

describe('--fitness-weights', () => {
  const base = run({}, LOW);

  it('adds a fitness score only when asked, computed from the reported metrics', () => {
    expect(base.fitness).toBeUndefined();
    const tput = run({ fitnessWeights: { throughput: 1 } }, LOW);
    // throughput -> rps / (rps + 100)
    expect(tput.fitness?.score).toBeCloseTo(tput.responses_per_sec / (tput.responses_per_sec + 100), 12);
    const ttft = run({ fitnessWeights: { p99_ttft: 1 } }, LOW);
    // latency in µs -> 1 / (1 + µs / 1000) = 1 / (1 + ms)
    expect(ttft.fitness?.score).toBeCloseTo(1 / (1 + ttft.ttft_p99_ms), 9);
  });

  it('weights scale the score and change the ranking of two configurations', () => {
    const a = run({ fitnessWeights: { throughput: 0.5, p99_ttft: 0.5 } }, LOW).fitness!;
    const b = run({ fitnessWeights: { throughput: 1, p99_ttft: 1 } }, LOW).fitness!;
    expect(b.score).toBeCloseTo(2 * a.score, 12);
    // Admission latency hurts TTFT but not throughput: only a TTFT weight sees it.
    const slow = (w: Record<string, number>) => run({ admissionLatencyUs: 50_000, fitnessWeights: w }, LOW).fitness!.score;
    const fast = (w: Record<string, number>) => run({ fitnessWeights: w }, LOW).fitness!.score;
    expect(slow({ p99_ttft: 1 })).toBeLessThan(fast({ p99_ttft: 1 }));
    expect(slow({ throughput: 1 })).toBeCloseTo(fast({ throughput: 1 }), 3);
  });
});
