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
  /** Priority assigned by the priority policy (higher = more urgent); 0 before assignment. */
  readonly priority: number;
  /** Per-request TTFT target from the workload, in µs, or 0 when none. */
  readonly sloTargetUs: number;
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
 * requests, `shared` pods are in both pools, and `unassigned` instances (beyond P + D + S) are
 * never routed to.
 */
export type PoolType = 'monolithic' | 'prefill' | 'decode' | 'shared' | 'unassigned';

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

/** Signals an autoscaler reads each evaluation. */
export interface AutoScaleContext {
  readonly nowUs: number;
  readonly activeInstances: number;
  readonly minInstances: number;
  readonly maxInstances: number;
  readonly instances: readonly InstanceSnapshot[];
  readonly saturation: number;
}
