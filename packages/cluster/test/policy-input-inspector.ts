import { SimRequest } from '@blis/engine';
import type { AdmissionPolicy, InstanceScheduler, PriorityPolicy, RequestView, RouterState, RoutingPolicy, SchedulerContext, SchedulerEntry } from '@blis/policies';
import { expect } from 'vitest';

// What INV-9's structural check (inv9-oracle-boundary-inputs.test.ts) hands a policy in place of
// its inputs: every input walked through every own and inherited property for a key that names an
// output length or a reachable engine request (findLeaks, Inspector), and the policy wrapped so it
// sees read-only proxies while the live state is fingerprinted around each call.

const OUTPUT_KEY = /output|decode|completion|generat|max_?tokens|remaining/i;

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
export function findLeaks(root: unknown, rootName: string): string[] {
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
  // Leading blocks other requests may share (the workload's word, absent when it cannot tell).
  'sharedPrefixBlocks',
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

export class Inspector {
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

export function inspectAdmission(inner: AdmissionPolicy, ins: Inspector): AdmissionPolicy {
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

export function inspectPriority(inner: PriorityPolicy, ins: Inspector): PriorityPolicy {
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

export function inspectRouting(inner: RoutingPolicy, ins: Inspector): RoutingPolicy {
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

export function inspectScheduler(inner: InstanceScheduler, ins: Inspector): InstanceScheduler {
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
