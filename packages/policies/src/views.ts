/**
 * Read-only views that policies receive. Policies never see engine objects, and never see a
 * request's output length (INV-9: the router cannot know how long an answer will be).
 */

/** The SLO classes of WorkloadSpec v2, from most to least urgent. */
export type SloClass = 'critical' | 'standard' | 'sheddable' | 'batch' | 'background';

/** What a policy may know about a request. Deliberately has no output-length field. */
export interface RequestView {
  /** Dense index of the request within the run (0-based, arrival order of generation). */
  readonly index: number;
  /** External identifier (trace `request_id`), or the index as a string. */
  readonly id: string;
  readonly arrivalUs: number;
  readonly inputTokens: number;
  readonly clientId: string;
  readonly tenantId: string;
  /** One of {@link SloClass}, or '' when the workload did not say. */
  readonly sloClass: string;
  readonly sessionId: string;
  readonly roundIndex: number;
  readonly prefixGroup: string;
  readonly streaming: boolean;
  /** Hierarchical hashes of the prompt's full KV blocks (each chains the previous one). */
  readonly blockHashes: ArrayLike<number>;
  /**
   * Leading blocks of {@link RequestView.blockHashes} that other requests may carry too (a shared prefix
   * group's, a session's earlier rounds'); the blocks after them hold content only this request
   * has. A router sees a request before any instance has run it, so no cache can hold those
   * blocks yet: at 0, every cache's prefix hit for the request is 0 without a look-up. Absent
   * when the workload cannot tell (a trace's own request ids or hashes).
   */
  readonly sharedPrefixBlocks?: number;
  /** Priority assigned by the priority policy (higher = more urgent); 0 before assignment. */
  readonly priority: number;
  /** Per-request TTFT target from the workload, in µs, or 0 when none. */
  readonly sloTargetUs: number;
  /** The LoRA adapter the request asks for (a registry id); '' or absent = the base model. */
  readonly adapter?: string;
  /** A multimodal prompt's tokens by modality; absent for a text-only request. */
  readonly modalities?: ModalityTokens;
}

/**
 * A multimodal prompt's tokens by modality (BLIS's per-request text/image/audio/video counts):
 * the prompt is their sum (at least 1 token). They are counts only; every token costs what a
 * text token costs in the latency models and the KV cache, as in BLIS.
 */
export interface ModalityTokens {
  readonly text: number;
  readonly image: number;
  readonly audio: number;
  readonly video: number;
}

/** A cheap, read-only window onto one instance's KV cache. No maps are copied to build it. */
export interface KVCacheView {
  readonly totalBlocks: number;
  readonly usedBlocks: number;
  readonly freeBlocks: number;
  readonly blockSizeTokens: number;
  /** Number of leading blocks of `hashes` currently held (in use or revivable) by the cache. */
  cachedPrefixBlocks(hashes: ArrayLike<number>): number;
}

/**
 * The role an instance plays (the seeds' PoolType). `monolithic`: no P/D disaggregation, the
 * instance serves whole requests. With P/D on, BLIS's pool layout: `prefill` pods run prefill
 * sub-requests only, `decode` pods run decode sub-requests and whole (non-disaggregated)
 * requests, `shared` pods are in both pools, `encode` pods (E/P/D) are only ever chosen by the
 * encode stage (no request runs on them), and `unassigned` instances (beyond P + D + S + E) are
 * never routed to.
 */
export type PoolType = 'monolithic' | 'prefill' | 'decode' | 'shared' | 'encode' | 'unassigned';

/**
 * Instance state as the router sees it. `inFlightRequests` is router-owned and always current;
 * the other load signals are instance-reported and may be stale by up to the snapshot refresh
 * interval (INV-7); `snapshotTimeUs` says when they were read.
 */
export interface InstanceSnapshot {
  readonly index: number;
  readonly id: string;
  /**
   * Which pool the instance is in. The simulator always sets it; absent (hand-built snapshots)
   * means `monolithic`. Under P/D a routing policy sees one pool at a time.
   */
  readonly pool?: PoolType;
  readonly queueDepth: number;
  readonly batchSize: number;
  readonly kvUtilization: number;
  readonly freeKVBlocks: number;
  readonly totalKVBlocks: number;
  readonly cacheHitRate: number;
  readonly inFlightRequests: number;
  readonly snapshotTimeUs: number;
  /** Live prefix query against the instance's real cache (what precise-prefix-cache uses). */
  readonly kv: KVCacheView;
  /**
   * LoRA adapters resident on the instance as of {@link snapshotTimeUs} (refreshed with the load
   * signals); absent when the run serves no adapters.
   */
  readonly residentAdapters?: ReadonlySet<string>;
}

/** Per-tenant router bookkeeping. */
export interface TenantState {
  readonly tenantId: string;
  /** Requests seen from this tenant so far. */
  readonly requests: number;
  /** Admitted requests of this tenant not yet completed. */
  readonly inFlight: number;
  /** Arrival rate over the recent window, requests per second. */
  readonly recentRate: number;
}

/** Everything the admission and routing stages may look at. */
export interface RouterState {
  readonly nowUs: number;
  readonly instances: readonly InstanceSnapshot[];
  /** Admitted and not yet completed, over all instances. */
  readonly globalInFlight: number;
  /** Cluster arrival rate over the recent window, requests per second. */
  readonly recentRate: number;
  tenant(tenantId: string): TenantState;
  /** Pool saturation as the flow-control detector computes it (mean over instances). */
  readonly saturation: number;
}

/** A queued request as the instance scheduler sees it. */
export interface SchedulerEntry {
  readonly request: RequestView;
  /** Monotone sequence in which it entered this instance's wait queue (ties broken by it). */
  readonly enqueueSeq: number;
}

/** What an instance scheduler knows about the instance it orders. */
export interface SchedulerContext {
  readonly nowUs: number;
  readonly instanceIndex: number;
  readonly queueDepth: number;
  readonly batchSize: number;
}

/** Lifecycle state of a replica an autoscaler sees (only routable replicas are listed). */
export type ReplicaState = 'warming-up' | 'active';

/**
 * One routable replica as an autoscaler sees it: load aggregates, never requests. Load signals
 * are as stale as the router's (the snapshot refresh interval); capacity and cost are fixed.
 */
export interface ReplicaMetrics {
  readonly index: number;
  readonly id: string;
  readonly state: ReplicaState;
  /** The accelerator it runs on (the node pool's `gpu_type`, else the run's hardware, else ''). */
  readonly gpuType: string;
  /** GPUs it holds (tensor parallelism). */
  readonly tp: number;
  /** Dollars per hour of this replica (its node pool's `cost_per_hour`; 0 without pools). */
  readonly costPerHour: number;
  readonly queueDepth: number;
  readonly batchSize: number;
  readonly inFlightRequests: number;
  readonly kvUtilization: number;
  /** KV cache capacity in tokens (total blocks x block size). */
  readonly totalKvCapacityTokens: number;
  /** KV tokens held by requests now (used blocks x block size). */
  readonly kvTokensInUse: number;
  /** When it acquired its GPUs (µs). */
  readonly startUs: number;
}

/** One past evaluation's aggregates, for policies that look at a trend. */
export interface LoadSample {
  readonly nowUs: number;
  readonly replicas: number;
  readonly avgQueueDepth: number;
  readonly avgKvUtilization: number;
  readonly requestRate: number;
}

/**
 * What an autoscaler reads at each evaluation, for one scaling group (the whole deployment, or
 * under P/D one pool). Aggregates only: no request, and no tenant's traffic, is visible.
 */
export interface AutoScaleContext {
  readonly nowUs: number;
  /** The scaling group: `monolithic`, or the P/D pool being scaled (`prefill` or `decode`). */
  readonly pool: PoolType;
  /** Routable replicas (warming up or active), in instance order. */
  readonly replicas: readonly ReplicaMetrics[];
  /** Replicas placed or waiting for a node but not yet routable (scheduling or loading). */
  readonly pendingReplicas: number;
  /** KV capacity, in tokens, of the pending replicas (supply that is on its way). */
  readonly pendingKvCapacityTokens: number;
  /** Replicas being drained (not routable, not counted as current). */
  readonly drainingReplicas: number;
  /** Routable plus pending replicas: what a scale decision changes. */
  readonly currentReplicas: number;
  readonly minReplicas: number;
  /** `Infinity` when unbounded. */
  readonly maxReplicas: number;
  /** Mean queue depth and KV utilisation over the routable replicas (0 when there are none). */
  readonly avgQueueDepth: number;
  readonly avgKvUtilization: number;
  /**
   * Requests admitted but waiting for a routable replica of this group, plus the gateway
   * queue's length under flow control: demand no replica reports yet.
   */
  readonly waitingRequests: number;
  /** Cluster arrivals per second over the last second. */
  readonly requestRate: number;
  /**
   * Share of the requests completed since the previous evaluation that met their latency
   * targets; `null` when none completed or none had a target.
   */
  readonly sloAttainment: number | null;
  /** µs since this group's last applied scale action (`Infinity` before the first). */
  readonly timeSinceLastScaleUs: number;
  /** The previous evaluations' aggregates, oldest first (at most 16). */
  readonly history: readonly LoadSample[];
}
