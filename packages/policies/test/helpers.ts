import type {
  InstanceSnapshot,
  KVCacheView,
  RequestView,
  RouterState,
  SchedulerEntry,
  TenantState,
} from '../src/index.js';

/** A KV view whose cache holds exactly `cached` block hashes. */
export function kvView(cached: readonly number[] = [], totalBlocks = 1000): KVCacheView {
  const set = new Set(cached);
  return {
    totalBlocks,
    usedBlocks: set.size,
    freeBlocks: totalBlocks - set.size,
    blockSizeTokens: 16,
    cachedPrefixBlocks(hashes: ArrayLike<number>): number {
      let n = 0;
      while (n < hashes.length && set.has(hashes[n])) n++;
      return n;
    },
  };
}

export interface SnapshotInit extends Partial<Omit<InstanceSnapshot, 'kv'>> {
  /** Block hashes the instance's KV cache holds. */
  cached?: readonly number[];
  kv?: KVCacheView;
}

/** An instance snapshot; `index` defaults to its position when built through {@link snapshots}. */
export function snapshot(init: SnapshotInit = {}, position = 0): InstanceSnapshot {
  const index = init.index ?? position;
  return {
    index,
    id: init.id ?? `instance_${index}`,
    queueDepth: init.queueDepth ?? 0,
    batchSize: init.batchSize ?? 0,
    kvUtilization: init.kvUtilization ?? 0,
    freeKVBlocks: init.freeKVBlocks ?? 1000,
    totalKVBlocks: init.totalKVBlocks ?? 1000,
    cacheHitRate: init.cacheHitRate ?? 0,
    inFlightRequests: init.inFlightRequests ?? 0,
    snapshotTimeUs: init.snapshotTimeUs ?? 0,
    kv: init.kv ?? kvView(init.cached ?? []),
  };
}

export function snapshots(...inits: SnapshotInit[]): InstanceSnapshot[] {
  return inits.map((init, i) => snapshot(init, i));
}

export interface StateInit {
  nowUs?: number;
  globalInFlight?: number;
  recentRate?: number;
  saturation?: number;
  tenants?: Record<string, Partial<TenantState>>;
}

export function routerState(
  instances: readonly InstanceSnapshot[],
  init: StateInit = {},
): RouterState {
  const tenants = init.tenants ?? {};
  return {
    nowUs: init.nowUs ?? 0,
    instances,
    globalInFlight: init.globalInFlight ?? 0,
    recentRate: init.recentRate ?? 0,
    saturation: init.saturation ?? 0,
    tenant(tenantId: string): TenantState {
      const t = tenants[tenantId] ?? {};
      return {
        tenantId,
        requests: t.requests ?? 0,
        inFlight: t.inFlight ?? 0,
        recentRate: t.recentRate ?? 0,
      };
    },
  };
}

export function request(init: Partial<RequestView> = {}): RequestView {
  const index = init.index ?? 0;
  return {
    index,
    id: init.id ?? String(index),
    arrivalUs: init.arrivalUs ?? 0,
    inputTokens: init.inputTokens ?? 100,
    clientId: init.clientId ?? '',
    tenantId: init.tenantId ?? '',
    sloClass: init.sloClass ?? '',
    sessionId: init.sessionId ?? '',
    roundIndex: init.roundIndex ?? 0,
    prefixGroup: init.prefixGroup ?? '',
    streaming: init.streaming ?? false,
    blockHashes: init.blockHashes ?? [],
    priority: init.priority ?? 0,
    sloTargetUs: init.sloTargetUs ?? 0,
  };
}

export function entry(init: Partial<RequestView>, enqueueSeq: number): SchedulerEntry {
  return { request: request(init), enqueueSeq };
}

/** Freezes an object graph (typed arrays excluded: they cannot be frozen). */
export function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  if (ArrayBuffer.isView(value)) return value;
  seen.add(value);
  for (const key of Reflect.ownKeys(value as object)) {
    deepFreeze((value as Record<PropertyKey, unknown>)[key], seen);
  }
  return Object.freeze(value);
}

/** Runs a scorer into a fresh array and returns it as a plain array. */
export function scoreAll(
  scorer: { score(r: RequestView, s: RouterState, out: Float64Array): void },
  req: RequestView,
  state: RouterState,
): number[] {
  const out = new Float64Array(state.instances.length);
  scorer.score(req, state, out);
  return Array.from(out);
}
