/**
 * Read-only views of the simulator's live objects, for check mode. The simulator keeps mutating
 * those objects between decisions, so they cannot be frozen: each is wrapped in a Proxy whose
 * write traps report the path written (`state.instances[2].queueDepth`) and whose reads wrap
 * every object reached in turn. Proxies are cached per object and path, so a policy that keeps
 * a view (a Map keyed by snapshots) sees the same proxy every time and the cost is paid once.
 */

/** Called with the path of the first write; it throws (a PolicyError). */
export type WriteReporter = (path: string) => never;

/** Typed-array methods that write in place; called on the real array, so trapped by name. */
const TYPED_MUTATORS: ReadonlySet<PropertyKey> = new Set(['fill', 'set', 'sort', 'reverse', 'copyWithin']);

type AnyFunction = (...args: unknown[]) => unknown;

interface Entry {
  proxy: object;
  methods: Map<PropertyKey, AnyFunction>;
}

function childPath(path: string, key: PropertyKey, indexed: boolean): string {
  if (typeof key === 'symbol') return `${path}[${String(key)}]`;
  const k = String(key);
  return indexed && /^\d+$/.test(k) ? `${path}[${k}]` : `${path}.${k}`;
}

export class ReadOnlyViews {
  private readonly cache = new WeakMap<object, Map<string, Entry>>();

  constructor(private readonly report: WriteReporter) {}

  /** `value` behind a read-only proxy named `path`; primitives as they are. */
  view<T>(value: T, path: string): T {
    if (value === null || typeof value !== 'object') return value;
    return this.entry(value as object, path).proxy as T;
  }

  private entry(target: object, path: string): Entry {
    let byPath = this.cache.get(target);
    if (byPath === undefined) this.cache.set(target, (byPath = new Map()));
    let entry = byPath.get(path);
    if (entry === undefined) {
      entry = { proxy: new Proxy(target, this.handler(path)), methods: new Map() };
      byPath.set(path, entry);
    }
    return entry;
  }

  private handler(path: string): ProxyHandler<object> {
    const indexed = (t: object) => Array.isArray(t) || ArrayBuffer.isView(t);
    return {
      // Reads go to the real object (receiver = target): getters and private fields of the
      // simulator's classes keep working.
      get: (target, key) => {
        const v = Reflect.get(target, key) as unknown;
        if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return v;
        if (key === 'constructor') return v;
        // A proxy must hand out the very value of a frozen property.
        const own = Object.getOwnPropertyDescriptor(target, key);
        if (own !== undefined && own.configurable === false && own.writable === false) return v;
        if (typeof v === 'function') return this.method(target, key, v as AnyFunction, path);
        return this.view(v, childPath(path, key, indexed(target)));
      },
      set: (_target, key) => this.report(childPath(path, key, indexed(_target))),
      defineProperty: (target, key) => this.report(childPath(path, key, indexed(target))),
      deleteProperty: (target, key) => this.report(`${childPath(path, key, indexed(target))} (delete)`),
      setPrototypeOf: () => this.report(`${path} (its prototype)`),
    };
  }

  /**
   * A method read off a view. Plain arrays' methods run on the proxy, so every element they
   * touch is a view and every write (push, sort) is trapped; what they return (a filtered copy)
   * is the policy's own. Typed arrays' methods need the real array: the writing ones are
   * refused by name. Other objects' methods (the router state's `tenant()`, the KV view's
   * queries) run on the real object and what they return is the simulator's, so it is viewed.
   */
  private method(target: object, key: PropertyKey, fn: AnyFunction, path: string): AnyFunction {
    const entry = this.entry(target, path);
    const cached = entry.methods.get(key);
    if (cached !== undefined) return cached;
    const named = `${childPath(path, key, false)}()`;
    let wrapped: AnyFunction;
    if (Array.isArray(target)) {
      const proxy = entry.proxy;
      wrapped = (...args) => Reflect.apply(fn, proxy, args);
    } else if (ArrayBuffer.isView(target)) {
      wrapped = TYPED_MUTATORS.has(key)
        ? () => this.report(named)
        : key === 'subarray'
          ? (...args) => this.view(Reflect.apply(fn, target, args), named)
          : (...args) => Reflect.apply(fn, target, args);
    } else {
      wrapped = (...args) => this.view(Reflect.apply(fn, target, args), named);
    }
    entry.methods.set(key, wrapped);
    return wrapped;
  }
}
