import { ArrayRequestSource, type RequestSpec, SimRequest } from '@blis/engine';
import {
  type AdmissionPolicy,
  type InstanceScheduler,
  type PriorityPolicy,
  type RequestView,
  type RouterState,
  type RoutingPolicy,
  type SchedulerContext,
  type SchedulerEntry,
  createPolicyRegistry,
  policyContext,
} from '@blis/policies';
import type { DecisionObserver } from '@blis/trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';
import { flowControlSettings } from '../src/internal.js';
import { buildCluster, hashesFor, spec } from './helpers.js';

// INV-9, the oracle boundary: admission, priority, routing and scheduling never learn how long
// a request's answer will be. Proved two ways on real cluster runs:
//  (a) structurally: everything every built-in policy is handed (the request view, the router
//      state with its instance snapshots and tenant records, scheduler entries and context) is
//      walked through every own and inherited property; no key names an output length and no
//      engine request is reachable. The policy itself gets a read-only proxy of its inputs and
//      the live state is fingerprinted around each call, so a write would fail the test.
//  (b) behaviourally: changing only the output lengths leaves every admission, priority,
//      routing, scheduling and preemption decision unchanged up to the first request exit.

const registry = createPolicyRegistry();
const OUTPUT_KEY = /output|decode|completion|generat|max_?tokens|remaining/i;

// ---------------------------------------------------------------------------------------------
// (a) What policies are handed
// ---------------------------------------------------------------------------------------------

const NATIVE_PROTOS = new Set<object | null>([
  null,
  Object.prototype,
  Array.prototype,
  Function.prototype,
  Map.prototype,
  Set.prototype,
  Object.getPrototypeOf(Int8Array.prototype),
  ...[Float64Array, Float32Array, Int32Array, Uint32Array, Int16Array, Uint16Array, Int8Array, Uint8Array, Uint8ClampedArray].map((c) => c.prototype),
]);

/**
 * Walks every object reachable from `root` through own data properties (any key, enumerable or
 * not, string or symbol) and Map/Set contents. Every own and inherited (non-native) property
 * name is checked against {@link OUTPUT_KEY}. Getters are named, never invoked; functions are
 * not entered (their closures are out of reach of a policy too).
 */
function findLeaks(root: unknown, rootName: string): string[] {
  const leaks: string[] = [];
  const seen = new Set<object>();
  const visit = (value: unknown, path: string) => {
    if (value === null || typeof value !== 'object') return;
    if (seen.has(value)) return;
    seen.add(value);
    if (value instanceof SimRequest) leaks.push(`${path} is an engine SimRequest`);
    if (ArrayBuffer.isView(value)) return;
    for (let o: object | null = value; !NATIVE_PROTOS.has(o); o = Object.getPrototypeOf(o)) {
      const own = o === value;
      for (const key of Reflect.ownKeys(o as object)) {
        const name = typeof key === 'symbol' ? (key.description ?? '') : key;
        if (OUTPUT_KEY.test(name)) leaks.push(`${path}${own ? '' : ' (prototype)'}.${name}`);
        if (!own) continue;
        const d = Object.getOwnPropertyDescriptor(o, key);
        if (d !== undefined && 'value' in d) visit(d.value, `${path}.${name}`);
      }
    }
    if (value instanceof Map) for (const [k, v] of value) visit(v, `${path}.get(${String(k)})`);
    if (value instanceof Set) for (const v of value) visit(v, `${path}[item]`);
  };
  visit(root, rootName);
  return leaks;
}

/** Fields a RequestView has, and nothing else: the runtime record must match exactly. */
const VIEW_KEYS = [
  'adapter',
  'arrivalUs',
  'blockHashes',
  'clientId',
  'id',
  'index',
  // The prompt's parts (text, image, audio, video tokens): what the encode decider reads.
  'modalities',
  'inputTokens',
  'prefixGroup',
  'priority',
  'roundIndex',
  'sessionId',
  'sloClass',
  'sloTargetUs',
  'streaming',
  'tenantId',
].sort();

/**
 * A read-only face of `obj`: reads pass through (nested objects wrapped too, method results as
 * well), every write, definition, deletion or prototype change throws. Plain objects and arrays
 * run their methods against the proxy (so callbacks see wrapped elements); class instances and
 * built-ins against the target (their internals need the real receiver).
 */
function readOnly<T>(obj: T, path: string, cache = new WeakMap<object, unknown>()): T {
  if (obj === null || typeof obj !== 'object') return obj;
  const hit = cache.get(obj as object);
  if (hit !== undefined) return hit as T;
  const target = obj as object;
  const generic = Array.isArray(target) || Object.getPrototypeOf(target) === Object.prototype;
  const deny = (what: string) => (_t: object, key?: unknown) => {
    const at = typeof key === 'string' || typeof key === 'symbol' ? `.${String(key)}` : '';
    throw new Error(`policy tried to ${what} ${path}${at}`);
  };
  const proxy: object = new Proxy(target, {
    get(t, key) {
      const v = Reflect.get(t, key, t);
      if (typeof v === 'function') {
        if (key === 'constructor') return v;
        return (...args: unknown[]) => readOnly(Reflect.apply(v, generic ? proxy : t, args), `${path}.${String(key)}()`, cache);
      }
      return readOnly(v, `${path}.${String(key)}`, cache);
    },
    set: deny('write'),
    defineProperty: deny('define'),
    deleteProperty: deny('delete'),
    setPrototypeOf: deny('re-prototype'),
    preventExtensions: deny('freeze'),
  });
  cache.set(target, proxy);
  return proxy as T;
}

/** Everything about the router state a policy could change, as one string. */
function fingerprint(state: RouterState, req: RequestView): string {
  const t = state.tenant(req.tenantId);
  return JSON.stringify([
    state.nowUs,
    state.globalInFlight,
    state.recentRate,
    state.saturation,
    t.requests,
    t.inFlight,
    t.recentRate,
    state.instances.map((s) => [s.index, s.queueDepth, s.batchSize, s.kvUtilization, s.freeKVBlocks, s.cacheHitRate, s.inFlightRequests, s.snapshotTimeUs, s.kv.usedBlocks]),
  ]);
}

function viewFingerprint(req: RequestView): string {
  return JSON.stringify({ ...req, blockHashes: Array.from(req.blockHashes) });
}

class Inspector {
  calls = 0;
  leaks: string[] = [];

  request(req: RequestView, where: string): void {
    this.calls++;
    const keys = Object.keys(req).sort();
    if (keys.join() !== VIEW_KEYS.join()) this.leaks.push(`${where}: request view keys ${keys.join()}`);
    this.leaks.push(...findLeaks(req, `${where}:request`));
  }

  state(state: RouterState, req: RequestView, where: string): void {
    this.leaks.push(...findLeaks(state, `${where}:state`));
    this.leaks.push(...findLeaks(state.tenant(req.tenantId), `${where}:state.tenant()`));
  }
}

function inspectAdmission(inner: AdmissionPolicy, ins: Inspector): AdmissionPolicy {
  return {
    name: inner.name,
    admit(req, state) {
      ins.request(req, `admission ${inner.name}`);
      ins.state(state, req, `admission ${inner.name}`);
      const before = [fingerprint(state, req), viewFingerprint(req)];
      const d = inner.admit(readOnly(req, 'request'), readOnly(state, 'state'));
      expect([fingerprint(state, req), viewFingerprint(req)]).toEqual(before);
      return d;
    },
  };
}

function inspectPriority(inner: PriorityPolicy, ins: Inspector): PriorityPolicy {
  return {
    name: inner.name,
    timeDependent: inner.timeDependent,
    priority(req, nowUs) {
      ins.request(req, `priority ${inner.name}`);
      const before = viewFingerprint(req);
      const p = inner.priority(readOnly(req, 'request'), nowUs);
      expect(viewFingerprint(req)).toBe(before);
      return p;
    },
  };
}

function inspectRouting(inner: RoutingPolicy, ins: Inspector): RoutingPolicy {
  return {
    name: inner.name,
    route(req, state) {
      ins.request(req, `routing ${inner.name}`);
      ins.state(state, req, `routing ${inner.name}`);
      const before = [fingerprint(state, req), viewFingerprint(req)];
      const d = inner.route(readOnly(req, 'request'), readOnly(state, 'state'));
      expect([fingerprint(state, req), viewFingerprint(req)]).toEqual(before);
      return d;
    },
    onComplete: inner.onComplete
      ? (req, instance) => {
          ins.request(req, `routing ${inner.name} onComplete`);
          inner.onComplete?.(readOnly(req, 'request'), instance);
        }
      : undefined,
  };
}

function inspectScheduler(inner: InstanceScheduler, ins: Inspector): InstanceScheduler {
  const cmp = inner.compare?.bind(inner);
  if (cmp === undefined) return inner; // fcfs: never looks at anything
  return {
    name: inner.name,
    compare(a: SchedulerEntry, b: SchedulerEntry, ctx: SchedulerContext) {
      ins.request(a.request, `scheduler ${inner.name}`);
      ins.leaks.push(...findLeaks(a, `scheduler ${inner.name}:entry`), ...findLeaks(ctx, `scheduler ${inner.name}:ctx`));
      const before = [viewFingerprint(a.request), viewFingerprint(b.request), JSON.stringify(ctx), a.enqueueSeq, b.enqueueSeq];
      const r = cmp(readOnly(a, 'entry a'), readOnly(b, 'entry b'), readOnly(ctx, 'ctx'));
      expect([viewFingerprint(a.request), viewFingerprint(b.request), JSON.stringify(ctx), a.enqueueSeq, b.enqueueSeq]).toEqual(before);
      return r;
    },
  };
}

/**
 * 80 requests on 3 instances with a small KV cache (preemptions), two tenants, all SLO classes,
 * sessions and shared prefixes, arriving in bursts, with flow control on: every policy input is
 * exercised, saturation included.
 */
const CLASSES = ['critical', 'standard', 'sheddable', 'batch', 'background', ''];
const WORKLOAD: RequestSpec[] = Array.from({ length: 80 }, (_, i) => {
  const n = 64 + ((i * 7919) % 700);
  const g = `g${i % 3}`;
  return spec(i, Math.floor(i / 8) * 30_000 + i, n, 1 + ((i * 104729) % 90), {
    tenantId: i % 5 === 0 ? 'b' : 'a',
    sloClass: CLASSES[i % CLASSES.length],
    sessionId: `s${i % 7}`,
    prefixGroup: g,
    blockHashes: hashesFor(n, g, 3, `u${i}`),
  });
});

function inspectedRun(runtime: Parameters<typeof simulate>[1], cfg: Parameters<typeof simulate>[0] = {}) {
  return simulate(
    { numInstances: 3, totalKVBlocks: 120, maxNumSeqs: 8, checkInvariants: true, flowControl: { enabled: true, maxGatewayQueueDepth: 30 }, ...cfg },
    { source: new ArrayRequestSource(WORKLOAD), ...runtime },
  );
}

const ctx = (params: Record<string, unknown> = {}) => policyContext({ numInstances: 3, params });
const ADMISSION_PARAMS: Record<string, Record<string, unknown>> = {
  'tenant-quota': { maxInFlight: 10 },
  'token-bucket': { capacity: 3000, refillRate: 20_000 },
};

describe('INV-9 (a): the inputs of every built-in policy carry no output length', () => {
  it.each(registry.names('admission'))('admission %s', (name) => {
    const ins = new Inspector();
    const r = inspectedRun({ admission: inspectAdmission(registry.createAdmissionPolicy(name, ctx(ADMISSION_PARAMS[name])), ins) });
    expect(ins.calls).toBe(80);
    expect(ins.leaks).toEqual([]);
    expect(r.injected_requests).toBe(80);
  });

  it.each(registry.names('priority'))('priority %s', (name) => {
    const ins = new Inspector();
    inspectedRun({ priority: inspectPriority(registry.createPriorityPolicy(name, ctx()), ins) }, { scheduler: { policy: 'priority-fcfs' } });
    expect(ins.calls).toBeGreaterThanOrEqual(80);
    expect(ins.leaks).toEqual([]);
  });

  it.each(registry.names('routing'))('routing %s', (name) => {
    const ins = new Inspector();
    const params = name === 'weighted' ? { scorers: registry.names('scorer').map((s, i) => ({ name: s, weight: i + 1 })) } : {};
    const r = inspectedRun({ routing: inspectRouting(registry.createRoutingPolicy(name, ctx(params)), ins) });
    expect(ins.calls).toBeGreaterThanOrEqual(r.injected_requests - r.rejected_requests);
    expect(ins.leaks).toEqual([]);
  });

  it.each(registry.names('scheduler').filter((n) => n !== 'fcfs'))('scheduler %s', (name) => {
    const ins = new Inspector();
    inspectedRun(
      {
        scheduler: () => inspectScheduler(registry.createScheduler(name, ctx()), ins),
        priority: registry.createPriorityPolicy('slo-class', ctx()),
      },
      { maxNumSeqs: 2 },
    );
    expect(ins.calls).toBeGreaterThan(0);
    expect(ins.leaks).toEqual([]);
  });

  it('the walker does find an output length when one is reachable', () => {
    // Guards the guard: an engine request, or any object with an output-length key, is found
    // through nesting, Maps, prototypes and non-enumerable properties.
    const req = new SimRequest(spec(0, 0, 10, 5), 0);
    expect(findLeaks({ a: [{ b: req }] }, 'x')).toContain('x.a.0.b is an engine SimRequest');
    expect(findLeaks({ m: new Map([[1, { outputTokens: 3 }]]) }, 'x')).toEqual(['x.m.get(1).outputTokens']);
    class Hidden {
      get decodeSteps() {
        return 1;
      }
    }
    expect(findLeaks(new Hidden(), 'x')).toEqual(['x (prototype).decodeSteps']);
    const o = {};
    Object.defineProperty(o, 'secret', { value: { maxTokens: 1 }, enumerable: false });
    expect(findLeaks(o, 'x')).toEqual(['x.secret.maxTokens']);
  });

  it('the read-only proxy stops a policy that writes to its inputs', () => {
    const writer: RoutingPolicy = {
      name: 'writer',
      route(req) {
        (req as { inputTokens: number }).inputTokens = 1;
        return { instance: 0, reason: '' };
      },
    };
    expect(() => inspectedRun({ routing: inspectRouting(writer, new Inspector()) })).toThrow(/policy tried to write request.inputTokens/);
    const stateWriter: RoutingPolicy = {
      name: 'state-writer',
      route(_req, state) {
        (state.instances[1] as { queueDepth: number }).queueDepth = 0;
        return { instance: 0, reason: '' };
      },
    };
    expect(() => inspectedRun({ routing: inspectRouting(stateWriter, new Inspector()) })).toThrow(/policy tried to write state.instances.1.queueDepth/);
  });
});

// ---------------------------------------------------------------------------------------------
// (b) Output lengths do not move decisions
// ---------------------------------------------------------------------------------------------

type Decision = [kind: string, nowUs: number, request: number, value: number | boolean];

/**
 * Records every policy decision in the order taken, with its clock, and how many decisions had
 * been taken when the first request left the system (completed, or dropped as unservable: the
 * instance, not a policy, knows the output length and drops a request whose KV footprint
 * cannot fit). Everything up to that point must be the same whatever the output lengths.
 */
class DecisionLog implements DecisionObserver {
  readonly decisions: Decision[] = [];
  firstExitAt = Number.POSITIVE_INFINITY;
  private steps = 0;
  onStep() {
    if (++this.steps > 200_000) throw new Error('no end in sight: over 200,000 steps for at most 50 requests');
  }
  onAdmission(req: SimRequest, d: { admit: boolean }, _s: RouterState, now: number) {
    this.decisions.push(['admit', now, req.view.index, d.admit]);
  }
  onPriority(req: SimRequest, score: number, now: number) {
    this.decisions.push(['priority', now, req.view.index, score]);
  }
  onRouting(req: SimRequest, d: { instance: number }, _s: RouterState, now: number) {
    this.decisions.push(['route', now, req.view.index, d.instance]);
  }
  onScheduled(req: SimRequest, now: number, instance: number) {
    this.decisions.push(['schedule', now, req.view.index, instance]);
  }
  onPreempted(req: SimRequest, now: number, instance: number) {
    this.decisions.push(['preempt', now, req.view.index, instance]);
  }
  onCompleted() {
    this.exit();
  }
  onDropped(_req: SimRequest, _now: number, reason: string) {
    if (reason === 'rejected' || reason === 'shed') return; // admission decisions, not exits
    this.exit();
  }
  private exit() {
    if (this.firstExitAt === Number.POSITIVE_INFINITY) this.firstExitAt = this.decisions.length;
  }
}

const ROUTERS = registry.names('routing');
const SCORERS = registry.names('scorer');

const clusterArb = fc.record({
  instances: fc.integer({ min: 1, max: 6 }),
  kvBlocks: fc.integer({ min: 40, max: 400 }),
  maxNumSeqs: fc.integer({ min: 1, max: 16 }),
  budget: fc.integer({ min: 64, max: 2048 }),
  routing: fc.constantFrom(...ROUTERS),
  scorers: fc.uniqueArray(fc.record({ name: fc.constantFrom(...SCORERS), weight: fc.integer({ min: 1, max: 9 }) }), { selector: (s) => s.name, minLength: 1, maxLength: SCORERS.length }),
  admission: fc.constantFrom('always-admit', 'token-bucket', 'tenant-quota', 'slo-shed', 'tier-shed', 'gaie-legacy'),
  priority: fc.constantFrom(...registry.names('priority')),
  scheduler: fc.constantFrom(...registry.names('scheduler')),
  preemption: fc.constantFrom('fcfs' as const, 'priority' as const),
  refresh: fc.constantFrom(0, 5_000, 100_000),
  flow: fc.boolean(),
});

const burstArb = fc.array(
  fc.record({
    gap: fc.integer({ min: 0, max: 3_000 }),
    input: fc.integer({ min: 16, max: 1500 }),
    group: fc.integer({ min: 0, max: 3 }),
    shared: fc.integer({ min: 0, max: 30 }),
    cls: fc.constantFrom('critical', 'standard', 'batch', 'sheddable', ''),
    tenant: fc.constantFrom('a', 'b'),
  }),
  { minLength: 2, maxLength: 50 },
);

type Cluster = typeof clusterArb extends fc.Arbitrary<infer T> ? T : never;
type Burst = typeof burstArb extends fc.Arbitrary<infer T> ? T : never;

function decisionsWith(cfg: Cluster, burst: Burst, outputs: readonly number[]): DecisionLog {
  let t = 0;
  const specs = burst.map((w, i) => {
    t += w.gap;
    return spec(i, t, w.input, outputs[i], {
      sloClass: w.cls,
      tenantId: w.tenant,
      sessionId: `s${w.group}`,
      prefixGroup: `g${w.group}`,
      blockHashes: hashesFor(w.input, `g${w.group}`, w.shared, `u${i}`),
    });
  });
  const log = new DecisionLog();
  const sim = buildCluster(specs, {
    instances: cfg.instances,
    kvBlocks: cfg.kvBlocks,
    maxNumSeqs: cfg.maxNumSeqs,
    budget: cfg.budget,
    routing: cfg.routing,
    routingParams: cfg.routing === 'weighted' ? { scorers: cfg.scorers } : {},
    admission: cfg.admission,
    admissionParams: cfg.admission === 'tenant-quota' ? { maxInFlight: 6 } : cfg.admission === 'token-bucket' ? { capacity: 4000, refillRate: 100_000 } : {},
    priority: cfg.priority,
    scheduler: cfg.scheduler,
    preemption: cfg.preemption,
    setup: {
      observer: log,
      snapshotRefreshIntervalUs: cfg.refresh,
      flowControl: cfg.flow ? flowControlSettings({ saturationDetector: 'utilization', queueDepthThreshold: 3 }) : undefined,
    },
  });
  sim.run();
  return log;
}

/** The decisions both runs took before either saw a request leave. */
const beforeFirstExit = (a: DecisionLog, b: DecisionLog) => {
  const n = Math.min(a.firstExitAt, b.firstExitAt, a.decisions.length, b.decisions.length);
  return [a.decisions.slice(0, n), b.decisions.slice(0, n)];
};

describe('INV-9 (b): output lengths never change a decision before the first request leaves', () => {
  it('a burst of 120 requests: every decision up to the first exit is identical', () => {
    const cfg: Cluster = {
      instances: 4,
      kvBlocks: 400,
      maxNumSeqs: 8,
      budget: 1024,
      routing: 'weighted',
      scorers: SCORERS.map((name) => ({ name, weight: 1 })),
      admission: 'slo-shed',
      priority: 'slo-class',
      scheduler: 'priority-fcfs',
      preemption: 'priority',
      refresh: 5_000,
      flow: true,
    };
    const burst: Burst = Array.from({ length: 120 }, (_, i) => ({
      gap: 50,
      input: 200 + ((i * 7919) % 1200),
      group: i % 4,
      shared: 8,
      cls: (['critical', 'standard', 'batch', 'sheddable'] as const)[i % 4],
      tenant: i % 3 === 0 ? 'b' : 'a',
    }));
    const short = decisionsWith(cfg, burst, burst.map(() => 2));
    const long = decisionsWith(cfg, burst, burst.map((_, i) => 50 + ((i * 104729) % 400)));
    const [a, b] = beforeFirstExit(short, long);
    expect(a.length).toBeGreaterThan(150); // most of the 120 admissions, priorities and routings
    expect(b).toEqual(a);
    // And afterwards they do differ: the check is not vacuous.
    expect(long.decisions).not.toEqual(short.decisions);
  });

  it('on generated clusters and output lengths', () => {
    fc.assert(
      fc.property(
        clusterArb,
        burstArb.chain((b) =>
          fc.tuple(fc.constant(b), fc.array(fc.integer({ min: 0, max: 300 }), { minLength: b.length, maxLength: b.length }), fc.array(fc.integer({ min: 0, max: 300 }), { minLength: b.length, maxLength: b.length })),
        ),
        (cfg, [burst, outA, outB]) => {
          const a = decisionsWith(cfg, burst, outA);
          const b = decisionsWith(cfg, burst, outB);
          const [da, db] = beforeFirstExit(a, b);
          expect(db).toEqual(da);
        },
      ),
      { numRuns: Number(process.env.BLIS_PROPERTY_RUNS ?? 200) },
    );
  });
});
