import { KVCacheError } from '../errors.js';
import type { KVTierConfig } from './tier-config.js';

/** Returned by {@link KVTiers.admit} when a new request must wait for a fetch (offload chain only). */
export const DEFERRED = -1;

/** What a tier model counted over a run, per instance; the cluster sums these. */
export interface KVTierStats {
  kind: KVTierConfig['kind'];
  /** CPU tier (or staging tier) capacity, blocks. */
  cpuCapacityBlocks: number;
  /** Blocks claimed from the prefix cache, reloaded ones included (BLIS's `gpu.CacheHits`). */
  gpuHits: number;
  /** Blocks filled fresh (BLIS's `gpu.CacheMisses`). */
  gpuMisses: number;
  /** Failed allocations the CPU tier could not help (BLIS's `cpuMissCount` / `offloadMissCount`). */
  tierMisses: number;
  /** New blocks stored on the CPU tier by the mirror (BLIS's `mirrorCount`). */
  mirrored: number;
  /** Blocks reloaded from the CPU tier onto the GPU (BLIS's `cpuHitCount` / `reloadCount`). */
  reloaded: number;
  /** Blocks the CPU tier evicted to make room. */
  cpuEvictions: number;
  /** Mirror stores refused because every CPU block was locked (offload chain). */
  mirrorSkipped: number;
  /** Promotions from a secondary tier submitted / refused by the evictable gate (offload chain). */
  promotionsFired: number;
  promotionsFailed: number;
  /** Admissions deferred while a fetch was pending (offload chain). */
  deferrals: number;
  /** Blocks written to each secondary tier (offload chain; empty for the CPU model). */
  secondaryWrites: number[];
  /** Total transfer latency charged to steps, µs (CPU model). */
  transferLatencyUs: number;
}

/**
 * The running requests as the mirror reads them, by batch position: the engine keeps these in
 * typed arrays, so a step's mirror reads no request object unless it must hash-walk one.
 */
export interface MirrorBatch {
  readonly count: number;
  /** KV owner of each request. */
  readonly owners: ArrayLike<number>;
  /** Prompt length of each request, tokens. */
  readonly inputTokens: ArrayLike<number>;
  /** A key naming the request (not its position): equal keys mean the same request and hashes. */
  readonly keys: ArrayLike<number>;
  /** How many block hashes each request has (its prompt's, plus answer blocks for sessions). */
  readonly hashCounts: ArrayLike<number>;
  /** The block hashes of the request at position `i`: `hashesOf(i)[k]` names its block k. */
  hashesOf(i: number): ArrayLike<number>;
}

/** Block movements between tiers, for observers (decision traces, tests); absent costs nothing. */
export interface KVTierListener {
  /** A block was copied from the CPU tier back onto the GPU. */
  onReload?(hash: number, now: number): void;
  /** The CPU tier dropped a block, stored there at `storedAt` µs, to make room. */
  onCpuEvict?(hash: number, storedAt: number, now: number): void;
  /** The offload chain's evictable gate refused a promotion: its blocks will be recomputed. */
  onPromotionRefused?(hash: number, now: number): void;
}

/**
 * A KV tier model behind the GPU cache, driven by the engine in BLIS's step order (reference
 * §0): `setClock` and `pollDeferred` first, `admit` before each new request's allocation,
 * `consumeTransferLatency` when the step's time is known, `mirror` after the batch is final and
 * before completions release their blocks. The GPU cache itself stays the engine's `KVCache`;
 * routers and the autoscaler see only it.
 */
export interface KVTiers {
  readonly config: KVTierConfig;
  /** Applies transfer completions due by `now` (offload chain; a no-op for the CPU model). */
  setClock(now: number): void;
  /** Advances deferred admissions by one poll (offload chain). */
  pollDeferred(now: number): void;
  /**
   * Called for a request that holds no KV yet, before its allocation: reloads what the CPU tier
   * holds of its prompt onto the GPU free list and returns how many leading prompt blocks the
   * GPU now has cached, or {@link DEFERRED} when the request must wait for a fetch. `key`
   * identifies the request across polls; `promptBlocks` is `floor(inputTokens / blockSize)`.
   */
  admit(key: number, hashes: ArrayLike<number>, promptBlocks: number, now: number): number;
  /** Blocks the last {@link admit} reloaded (0 when it reloaded none). */
  readonly lastReloaded: number;
  /** Counts an allocation that failed although no block was reloaded for it (BLIS's tier miss). */
  allocationFailed(): void;
  /** Forgets a deferral episode (the request timed out or left). */
  clearDeferred(key: number): void;
  /** True while `key` has a deferral episode that {@link admit} has not yet closed. */
  isDeferred(key: number): boolean;
  /** Reload latency accumulated since the last call, µs, and resets it (CPU model). */
  consumeTransferLatency(): number;
  /** Mirrors the blocks of the running requests to the CPU tier (after the batch is final, before completions). */
  mirror(batch: MirrorBatch, now: number): void;
  /** BLIS's per-instance `CacheHitRate`. */
  cacheHitRate(): number;
  /** BLIS's per-instance `KVThrashingRate`. */
  thrashingRate(): number;
  stats(): KVTierStats;
  /** Reports block movements to `listener` from now on (one listener; undefined stops). */
  watch(listener: KVTierListener | undefined): void;
  /** Throws on a broken invariant of the tiers (tests and `checkInvariants`). */
  checkConsistency(): void;
  /**
   * Gives back the tiers' memory (CPU blocks, key indexes, transfers in flight) for good, with
   * the GPU cache's `retire()`: `stats()`, `cacheHitRate()` and `thrashingRate()` keep
   * answering what they did; a later `setClock`, `pollDeferred`, `admit` or `mirror` throws a
   * `KVCacheError`. Retiring twice does nothing.
   */
  retire(): void;
}

/** The error of a call that would need a retired tier's memory. */
export function retiredTierError(call: string): KVCacheError {
  return new KVCacheError(`cannot ${call} on a retired KV tier`);
}
