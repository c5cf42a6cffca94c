import type { RequestView } from '../views.js';

/** The fields a {@link RequestView} has: anything else a policy reads is a contract breach (INV-9). */
export const REQUEST_VIEW_KEYS: ReadonlySet<string> = new Set([
  'index', 'id', 'arrivalUs', 'inputTokens', 'clientId', 'tenantId', 'sloClass', 'sessionId',
  'roundIndex', 'prefixGroup', 'streaming', 'blockHashes', 'sharedPrefixBlocks', 'priority', 'sloTargetUs', 'adapter',
] satisfies (keyof RequestView)[]);

// Reads that generic code does on any object (JSON.stringify, await, util.inspect), not a policy
// reaching for hidden data.
const HARMLESS_READS = new Set(['toJSON', 'then', 'constructor', ...Object.getOwnPropertyNames(Object.prototype)]);

/** One breach seen through a guarded view. */
export interface ViewBreach {
  readonly kind: 'write' | 'hidden-read';
  /** Where: `request.outputTokens`, `state.instances[2].queueDepth`. */
  readonly path: string;
}

/**
 * Wraps views so that every write (set, define, delete, on any nested object) and every read (or
 * `in` test) of a request field that {@link RequestView} does not declare is recorded; writes do
 * not happen.
 * Writes are swallowed, so the policy keeps running on the original values and the contract
 * check reports the first breach with its path.
 */
export class ViewGuard {
  readonly breaches: ViewBreach[] = [];
  private readonly proxies = new WeakMap<object, object>();

  /** A guarded request view: writes and reads of fields outside RequestView are recorded. */
  request<T extends object>(value: T, path = 'request'): T {
    return this.wrap(value, path, true);
  }

  /** A guarded view of anything else (router state, snapshot, scheduler entry, autoscaler context). */
  view<T extends object>(value: T, path: string): T {
    return this.wrap(value, path, false);
  }

  private wrap<T extends object>(value: T, path: string, isRequest: boolean): T {
    const known = this.proxies.get(value);
    if (known !== undefined) return known as T;
    const guard = this;
    const child = (v: unknown, p: string, req: boolean): unknown => (v !== null && typeof v === 'object' ? guard.wrap(v, p, req) : v);
    const proxy = new Proxy(value, {
      get(target, prop, receiver) {
        const name = String(prop);
        if (isRequest && typeof prop === 'string' && !REQUEST_VIEW_KEYS.has(prop) && !HARMLESS_READS.has(prop)) {
          guard.breaches.push({ kind: 'hidden-read', path: `${path}.${name}` });
          return undefined;
        }
        const v = Reflect.get(target, prop, ArrayBuffer.isView(target) ? target : receiver);
        if (typeof v === 'function') {
          if (typeof prop === 'symbol' || HARMLESS_READS.has(name)) return ArrayBuffer.isView(target) ? v.bind(target) : v;
          // Methods run on the real object (typed arrays and private state need it); what they
          // return is guarded too (`state.tenant(id)`), and a request passed back stays guarded.
          return (...args: unknown[]) => child(Reflect.apply(v, target, args), `${path}.${name}()`, false);
        }
        // A request reached through another view (a scheduler entry's) is a request view.
        const childIsRequest = !isRequest && (name === 'request') && v !== null && typeof v === 'object';
        return child(v, Array.isArray(target) || ArrayBuffer.isView(target) ? `${path}[${name}]` : `${path}.${name}`, childIsRequest);
      },
      has(target, prop) {
        if (isRequest && typeof prop === 'string' && !REQUEST_VIEW_KEYS.has(prop) && !HARMLESS_READS.has(prop))
          guard.breaches.push({ kind: 'hidden-read', path: `${path}.${prop} (an \`in\` test)` });
        return Reflect.has(target, prop);
      },
      set(_target, prop) {
        guard.breaches.push({ kind: 'write', path: `${path}.${String(prop)}` });
        return true;
      },
      defineProperty(_target, prop) {
        guard.breaches.push({ kind: 'write', path: `${path}.${String(prop)}` });
        return true;
      },
      deleteProperty(_target, prop) {
        guard.breaches.push({ kind: 'write', path: `${path}.${String(prop)}` });
        return true;
      },
      setPrototypeOf() {
        guard.breaches.push({ kind: 'write', path: `${path} (prototype)` });
        return true;
      },
    });
    this.proxies.set(value, proxy);
    return proxy;
  }
}

/**
 * A stable text of a view graph's data (functions skipped, typed arrays as lists, NaN and
 * infinities spelled out), so before/after comparisons catch mutations a proxy cannot see.
 */
export function fingerprint(value: unknown): string {
  const seen = new Set<unknown>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
    if (v === null || typeof v !== 'object') return typeof v === 'function' ? undefined : v;
    if (seen.has(v)) return '[cycle]';
    seen.add(v);
    if (ArrayBuffer.isView(v) || Array.isArray(v)) return Array.from(v as ArrayLike<unknown>, walk);
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = walk((v as Record<string, unknown>)[k]);
    return out;
  };
  return JSON.stringify(walk(value));
}
