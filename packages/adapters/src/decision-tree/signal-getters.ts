import { type AutoScaleContext, effectiveLoad, type InstanceSnapshot, type RequestView, type RouterState } from '@blis/policies';

/**
 * What a compiled tree reads from. One Env per policy object is filled in place before each
 * decision, so no context is built per decision and a condition is a closure over a getter.
 */
export interface Env {
  request: RequestView;
  state: RouterState;
  instance: InstanceSnapshot;
  ctx: AutoScaleContext;
  nowUs: number;
}

export type Getter = (e: Env) => number | string | boolean;

/** A fresh Env whose fields the policy sets before reading any of them. */
export function emptyEnv(): Env {
  return { request: undefined, state: undefined, instance: undefined, ctx: undefined, nowUs: 0 } as unknown as Env;
}

function mean(e: Env, pick: (s: InstanceSnapshot) => number): number {
  const xs = e.state.instances;
  if (xs.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += pick(xs[i]);
  return sum / xs.length;
}

function sumReplicas(e: Env, pick: (r: AutoScaleContext['replicas'][number]) => number): number {
  const xs = e.ctx.replicas;
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += pick(xs[i]);
  return sum;
}

function countActive(e: Env, state: 'active' | 'warming-up'): number {
  let n = 0;
  for (const r of e.ctx.replicas) if (r.state === state) n++;
  return n;
}

/** Current value minus the oldest remembered evaluation's, 0 without history. */
function trend(e: Env, now: number, pick: (s: AutoScaleContext['history'][number]) => number): number {
  const h = e.ctx.history;
  return h.length === 0 ? 0 : now - pick(h[0]);
}

function prefixHitBlocks(e: Env): number {
  return e.instance.kv.cachedPrefixBlocks(e.request.blockHashes);
}

/** How each catalogue signal is read (the catalogue itself is in signals.ts). */
export const SIGNAL_GETTERS: Readonly<Record<string, Getter>> = {
  'request.input_tokens': (e) => e.request.inputTokens,
  'request.input_blocks': (e) => e.request.blockHashes.length,
  'request.slo_class': (e) => e.request.sloClass,
  'request.slo_target_us': (e) => e.request.sloTargetUs,
  'request.tenant_id': (e) => e.request.tenantId,
  'request.client_id': (e) => e.request.clientId,
  'request.session_id': (e) => e.request.sessionId,
  'request.prefix_group': (e) => e.request.prefixGroup,
  'request.round_index': (e) => e.request.roundIndex,
  'request.streaming': (e) => e.request.streaming,
  'request.arrival_us': (e) => e.request.arrivalUs,
  'request.age_us': (e) => e.nowUs - e.request.arrivalUs,
  'request.priority': (e) => e.request.priority,
  'request.adapter': (e) => e.request.adapter ?? '',

  'tenant.requests': (e) => e.state.tenant(e.request.tenantId).requests,
  'tenant.in_flight': (e) => e.state.tenant(e.request.tenantId).inFlight,
  'tenant.recent_rate': (e) => e.state.tenant(e.request.tenantId).recentRate,

  'global.now_us': (e) => e.state.nowUs,
  'global.in_flight': (e) => e.state.globalInFlight,
  'global.recent_rate': (e) => e.state.recentRate,
  'global.saturation': (e) => e.state.saturation,
  'global.instances': (e) => e.state.instances.length,
  'global.avg_queue_depth': (e) => mean(e, (s) => s.queueDepth),
  'global.avg_kv_utilization': (e) => mean(e, (s) => s.kvUtilization),

  'instance.index': (e) => e.instance.index,
  'instance.queue_depth': (e) => e.instance.queueDepth,
  'instance.batch_size': (e) => e.instance.batchSize,
  'instance.in_flight_requests': (e) => e.instance.inFlightRequests,
  'instance.load': (e) => effectiveLoad(e.instance),
  'instance.kv_utilization': (e) => e.instance.kvUtilization,
  'instance.free_kv_blocks': (e) => e.instance.freeKVBlocks,
  'instance.total_kv_blocks': (e) => e.instance.totalKVBlocks,
  'instance.cache_hit_rate': (e) => e.instance.cacheHitRate,
  'instance.prefix_hit_blocks': prefixHitBlocks,
  'instance.prefix_hit_ratio': (e) => {
    const n = e.request.blockHashes.length;
    return n === 0 ? 0 : prefixHitBlocks(e) / n;
  },
  'instance.snapshot_age_us': (e) => e.state.nowUs - e.instance.snapshotTimeUs,
  'instance.adapter_resident': (e) => {
    const a = e.request.adapter;
    return a !== undefined && a !== '' && e.instance.residentAdapters?.has(a) === true ? 1 : 0;
  },

  'group.pool': (e) => e.ctx.pool,
  'time.now_us': (e) => e.ctx.nowUs,
  'time.since_last_scale_us': (e) => e.ctx.timeSinceLastScaleUs,
  'replicas.current': (e) => e.ctx.currentReplicas,
  'replicas.routable': (e) => e.ctx.replicas.length,
  'replicas.active': (e) => countActive(e, 'active'),
  'replicas.warming_up': (e) => countActive(e, 'warming-up'),
  'replicas.pending': (e) => e.ctx.pendingReplicas,
  'replicas.draining': (e) => e.ctx.drainingReplicas,
  'replicas.min': (e) => e.ctx.minReplicas,
  'replicas.max': (e) => e.ctx.maxReplicas,
  'replicas.cost_per_hour': (e) => sumReplicas(e, (r) => r.costPerHour),
  'load.avg_queue_depth': (e) => e.ctx.avgQueueDepth,
  'load.avg_kv_utilization': (e) => e.ctx.avgKvUtilization,
  'load.in_flight': (e) => sumReplicas(e, (r) => r.inFlightRequests),
  'load.waiting_requests': (e) => e.ctx.waitingRequests,
  'load.request_rate': (e) => e.ctx.requestRate,
  'load.kv_tokens_in_use': (e) => sumReplicas(e, (r) => r.kvTokensInUse),
  'load.kv_capacity_tokens': (e) => sumReplicas(e, (r) => r.totalKvCapacityTokens),
  'load.pending_kv_capacity_tokens': (e) => e.ctx.pendingKvCapacityTokens,
  // NaN, not null, so that every ordered comparison with it is false.
  'slo.attainment': (e) => e.ctx.sloAttainment ?? Number.NaN,
  'trend.request_rate': (e) => trend(e, e.ctx.requestRate, (s) => s.requestRate),
  'trend.avg_queue_depth': (e) => trend(e, e.ctx.avgQueueDepth, (s) => s.avgQueueDepth),
  'trend.avg_kv_utilization': (e) => trend(e, e.ctx.avgKvUtilization, (s) => s.avgKvUtilization),
};
