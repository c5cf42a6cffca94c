import type {
  AutoScaleContext,
  InstanceSnapshot,
  KVCacheView,
  ReplicaMetrics,
  RequestView,
  RouterState,
  SchedulerContext,
  SchedulerEntry,
  TenantState,
} from '../views.js';

/** A KV view whose cache holds exactly `cached` block hashes (prefix queries answer from them). */
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

/** What {@link snapshot} takes: any snapshot field, plus the block hashes its KV cache holds. */
export interface SnapshotInit extends Partial<Omit<InstanceSnapshot, 'kv'>> {
  /** Block hashes the instance's KV cache holds (ignored when `kv` is given). */
  cached?: readonly number[];
  kv?: KVCacheView;
}

/**
 * An idle instance snapshot (1000 free KV blocks, empty queue) with `init`'s fields;
 * `index` defaults to `position`, `id` to `instance_<index>`.
 */
export function snapshot(init: SnapshotInit = {}, position = 0): InstanceSnapshot {
  const index = init.index ?? position;
  return {
    index,
    id: init.id ?? `instance_${index}`,
    ...(init.pool !== undefined ? { pool: init.pool } : {}),
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

/** One snapshot per `init`, indexed by position. */
export function snapshots(...inits: SnapshotInit[]): InstanceSnapshot[] {
  return inits.map((init, i) => snapshot(init, i));
}

/** What {@link routerState} takes besides the instances. */
export interface StateInit {
  nowUs?: number;
  globalInFlight?: number;
  recentRate?: number;
  saturation?: number;
  /** Per-tenant bookkeeping; tenants not listed report zeros. */
  tenants?: Record<string, Partial<TenantState>>;
}

/** A router state over `instances`; everything else zero unless `init` says otherwise. */
export function routerState(instances: readonly InstanceSnapshot[], init: StateInit = {}): RouterState {
  const tenants = init.tenants ?? {};
  return {
    nowUs: init.nowUs ?? 0,
    instances,
    globalInFlight: init.globalInFlight ?? 0,
    recentRate: init.recentRate ?? 0,
    saturation: init.saturation ?? 0,
    tenant(tenantId: string): TenantState {
      const t = tenants[tenantId] ?? {};
      return { tenantId, requests: t.requests ?? 0, inFlight: t.inFlight ?? 0, recentRate: t.recentRate ?? 0 };
    },
  };
}

/** A request view: request 0 (id "0") of 100 tokens at time 0, no blocks, unless `init` says otherwise. */
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
    sharedPrefixBlocks: init.sharedPrefixBlocks,
    priority: init.priority ?? 0,
    sloTargetUs: init.sloTargetUs ?? 0,
    adapter: init.adapter ?? '',
    modalities: init.modalities,
  };
}

/** A scheduler entry for {@link request}`(init)` that entered the queue `enqueueSeq`-th. */
export function entry(init: Partial<RequestView>, enqueueSeq: number): SchedulerEntry {
  return { request: request(init), enqueueSeq };
}

/** A scheduler context: instance 0 at time 0 with an empty queue and batch, unless `init` says otherwise. */
export function schedulerContext(init: Partial<SchedulerContext> = {}): SchedulerContext {
  return { nowUs: init.nowUs ?? 0, instanceIndex: init.instanceIndex ?? 0, queueDepth: init.queueDepth ?? 0, batchSize: init.batchSize ?? 0 };
}

/** KV capacity of a default {@link replicaMetrics} replica, in tokens (an H100 serving an 8B model). */
export const DEFAULT_REPLICA_KV_TOKENS = 160_000;

/**
 * A routable replica as an autoscaler sees it: active H100, TP 1, no cost, idle,
 * {@link DEFAULT_REPLICA_KV_TOKENS} KV tokens, unless `init` says otherwise. `kvUtilization`
 * defaults to `kvTokensInUse / totalKvCapacityTokens`.
 */
export function replicaMetrics(init: Partial<ReplicaMetrics> = {}, position = 0): ReplicaMetrics {
  const index = init.index ?? position;
  const total = init.totalKvCapacityTokens ?? DEFAULT_REPLICA_KV_TOKENS;
  const inUse = init.kvTokensInUse ?? 0;
  return {
    index,
    id: init.id ?? `replica_${index}`,
    state: init.state ?? 'active',
    gpuType: init.gpuType ?? 'H100',
    tp: init.tp ?? 1,
    costPerHour: init.costPerHour ?? 0,
    queueDepth: init.queueDepth ?? 0,
    batchSize: init.batchSize ?? 0,
    inFlightRequests: init.inFlightRequests ?? 0,
    kvUtilization: init.kvUtilization ?? (total > 0 ? inUse / total : 0),
    totalKvCapacityTokens: total,
    kvTokensInUse: inUse,
    startUs: init.startUs ?? 0,
  };
}

/**
 * An autoscaler context over `replicas` (each a partial {@link replicaMetrics}): nothing pending
 * or draining, min 1, unbounded max, nothing waiting; `currentReplicas` = routable + pending and
 * the averages computed from the replicas, unless `init` says otherwise.
 */
export function autoScaleContext(replicas: readonly Partial<ReplicaMetrics>[], init: Partial<AutoScaleContext> = {}): AutoScaleContext {
  const rs = replicas.map((r, i) => replicaMetrics(r, i));
  const n = rs.length;
  const pendingReplicas = init.pendingReplicas ?? 0;
  return {
    nowUs: init.nowUs ?? 0,
    pool: init.pool ?? 'monolithic',
    replicas: rs,
    pendingReplicas,
    pendingKvCapacityTokens: init.pendingKvCapacityTokens ?? 0,
    drainingReplicas: init.drainingReplicas ?? 0,
    currentReplicas: init.currentReplicas ?? n + pendingReplicas,
    minReplicas: init.minReplicas ?? 1,
    maxReplicas: init.maxReplicas ?? Number.POSITIVE_INFINITY,
    avgQueueDepth: init.avgQueueDepth ?? (n ? rs.reduce((s, r) => s + r.queueDepth, 0) / n : 0),
    avgKvUtilization: init.avgKvUtilization ?? (n ? rs.reduce((s, r) => s + r.kvUtilization, 0) / n : 0),
    waitingRequests: init.waitingRequests ?? 0,
    requestRate: init.requestRate ?? 0,
    sloAttainment: init.sloAttainment ?? null,
    timeSinceLastScaleUs: init.timeSinceLastScaleUs ?? Number.POSITIVE_INFINITY,
    history: init.history ?? [],
  };
}

/** Freezes an object graph in place and returns it (typed arrays are left alone: they cannot be frozen). */
export function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  if (ArrayBuffer.isView(value)) return value;
  seen.add(value);
  for (const key of Reflect.ownKeys(value as object)) deepFreeze((value as Record<PropertyKey, unknown>)[key], seen);
  return Object.freeze(value);
}

/** Runs a scorer into a fresh array sized to the instances and returns the scores as a plain array. */
export function scoreAll(
  scorer: { score(r: RequestView, s: RouterState, out: Float64Array): void },
  req: RequestView,
  state: RouterState,
): number[] {
  const out = new Float64Array(state.instances.length);
  scorer.score(req, state, out);
  return Array.from(out);
}
