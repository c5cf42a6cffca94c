import type { AutoScaleContext, ReplicaMetrics } from '../../src/index.js';

/** KV capacity of the reference replicas: 160,000 tokens, so supply = 128,000 at k = 0.8. */
export const H100_KV_TOKENS = 160_000;

/**
 * A routable replica: H100, TP 1, no cost, idle, 160,000 KV tokens, unless `init` says
 * otherwise. `kvUtilization` defaults to `kvTokensInUse / totalKvCapacityTokens`.
 */
export function replica(init: Partial<ReplicaMetrics> = {}, position = 0): ReplicaMetrics {
  const index = init.index ?? position;
  const total = init.totalKvCapacityTokens ?? H100_KV_TOKENS;
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
 * An autoscaler context over `replicas` (each a partial {@link replica}): nothing pending or
 * draining, min 1, unbounded max, nothing waiting; `currentReplicas` = routable + pending and
 * the averages computed from the replicas, unless `init` says otherwise.
 */
export function context(
  replicas: readonly Partial<ReplicaMetrics>[],
  init: Partial<AutoScaleContext> = {},
): AutoScaleContext {
  const rs = replicas.map((r, i) => replica(r, i));
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
    avgKvUtilization:
      init.avgKvUtilization ?? (n ? rs.reduce((s, r) => s + r.kvUtilization, 0) / n : 0),
    waitingRequests: init.waitingRequests ?? 0,
    requestRate: init.requestRate ?? 0,
    sloAttainment: init.sloAttainment ?? null,
    timeSinceLastScaleUs: init.timeSinceLastScaleUs ?? Number.POSITIVE_INFINITY,
    history: init.history ?? [],
  };
}

/** `n` replicas each holding `kvTokensInUse` tokens, queues empty. */
export function holding(n: number, kvTokensInUse: number): Partial<ReplicaMetrics>[] {
  return Array.from({ length: n }, () => ({ kvTokensInUse }));
}
