import { KVCacheError } from '../errors.js';
import type { KVCache } from '../kv-cache.js';
import { CPU_HIT, CPU_HIT_PENDING, CPU_MISS, CpuStagingTier } from './cpu-staging-tier.js';
import { DeferralBook, type PromotionHost } from './deferral.js';
import { DEFERRED, type KVTierListener, type KVTierStats, type KVTiers, type MirrorBatch, retiredTierError } from './kv-tiers.js';
import { SecondaryTier, firstHoldingTier } from './secondary-tier.js';
import { tierCacheHitRate, tierThrashingRate } from './tier-rates.js';
import type { OffloadChainConfig } from './tier-config.js';
import { TransferStation } from './transfer-station.js';

const FETCH_NONE = 0;
const FETCH_SECONDARY = 1;
const FETCH_PENDING = 2;

/**
 * BLIS's N-tier KV offload chain (`--kv-offload-config`, reference §1.4) behind a GPU
 * {@link KVCache}: a CPU staging tier with reference counts, ordered secondary `fs` tiers that
 * hold sets of block keys, and a {@link TransferStation} that times the copies between them.
 *
 * - Store: every step, {@link mirror} copies the running requests' full, hashed blocks (only
 *   their prompt part when `offloadPromptOnly`) to the CPU tier, and each newly stored block
 *   is written down to every secondary tier in parallel, pinned on the CPU until its writes land.
 * - Read: a request's prompt blocks held by the CPU tier are put back on the GPU free list at
 *   admission, at no cost in time. A block only a secondary tier holds is promoted to the CPU
 *   by a station read, and a new admission waits for it in the wait queue (deferral), a whole
 *   number of steps. Promotions that the CPU tier cannot place (its blocks locked) are refused,
 *   and the blocks are recomputed.
 * - Completions reach the tiers only in {@link setClock}, at the top of a step.
 *
 * With no secondary tier there is no station and nothing is ever deferred.
 */
export class OffloadChain implements KVTiers {
  readonly config: OffloadChainConfig;

  private readonly gpu: KVCache;
  // Not readonly: retire() swaps these for empty ones, so that their memory can be collected.
  private cpu: CpuStagingTier;
  private tiers: SecondaryTier[] = [];
  private station: TransferStation | null;
  private deferrals: DeferralBook;
  private readonly promotions: PromotionHost;
  /** What {@link stats} answered when the chain was retired; undefined while it is live. */
  private final: KVTierStats | undefined;
  /** Keys of each promotion in flight, by station job id. */
  private readonly readRuns = new Map<number, number[]>();
  private readonly perBlockBytes: number;
  private readonly blocksPerChunk: number;
  private clock = -0; // a double from the start (see EventQueue.poppedTime in @blis/engine)
  private reloadedLast = 0;
  private listener: KVTierListener | undefined;

  // The classifier's run, left here to avoid allocating a result.
  private runFrom = 0;
  private runLen = 0;
  private runTier = -1;

  private offloadMissCount = 0;
  private promotionsFired = 0;
  private promotionsFailed = 0;
  private reloadCount = 0;
  private mirrorSkipped = 0;
  private mirrored = 0;
  private readonly writesLanded: number[];

  /**
   * `options.normal` supplies standard normal draws for tiers with latency jitter (required
   * then, and called only for them).
   */
  constructor(config: OffloadChainConfig, gpu: KVCache, options: { normal?: () => number } = {}) {
    if (!Number.isInteger(config.perBlockBytes) || config.perBlockBytes <= 0) throw new KVCacheError(`offload chain: perBlockBytes must be a positive integer, found ${config.perBlockBytes}`);
    if (config.blocksPerChunk !== 1) throw new KVCacheError(`offload chain: only blocksPerChunk 1 is supported (as in BLIS), found ${config.blocksPerChunk}`);
    if (config.evictionPolicy !== 'lru') throw new KVCacheError(`offload chain: only the lru eviction policy is supported (as in BLIS), found ${config.evictionPolicy}`);
    this.config = config;
    this.gpu = gpu;
    this.cpu = new CpuStagingTier(config.cpuBlocks);
    this.perBlockBytes = config.perBlockBytes;
    this.blocksPerChunk = config.blocksPerChunk;
    for (let t = 0; t < config.secondaryTiers.length; t++) this.tiers.push(new SecondaryTier());
    this.writesLanded = config.secondaryTiers.map(() => 0);
    this.station = config.secondaryTiers.length > 0 ? new TransferStation(config.secondaryTiers, options) : null;
    this.promotions = { firePromotion: (keys, from, count, tier) => this.firePromotion(keys, from, count, tier) };
    this.deferrals = new DeferralBook(this.cpu, this.promotions);
  }

  /** Blocks the last {@link admit} reloaded from the CPU tier. */
  get lastReloaded(): number {
    return this.reloadedLast;
  }

  /** Applies the station's completions due by `now`: promoted blocks become readable, written ones join their tier and lose a pin. */
  setClock(now: number): void {
    if (this.final !== undefined) throw retiredTierError('set the clock');
    this.clock = now;
    const station = this.station;
    if (station === null) return;
    const n = station.drainCompleted(now);
    for (let i = 0; i < n; i++) {
      if (station.completedDirection(i) === TransferStation.READ) {
        const id = station.completedJob(i);
        const keys = this.readRuns.get(id);
        if (keys === undefined) continue;
        this.readRuns.delete(id);
        for (let k = 0; k < keys.length; k++) this.cpu.completeStore(keys[k], true);
      } else {
        const tier = station.completedTier(i);
        const key = station.completedTag(i);
        this.tiers[tier].store(key);
        this.cpu.unpin(key);
        this.writesLanded[tier]++;
      }
    }
  }

  /** Advances every pending deferral episode by one round (after {@link setClock}, once per step). */
  pollDeferred(now: number): void {
    if (this.final !== undefined) throw retiredTierError('poll deferrals');
    this.clock = now;
    this.deferrals.poll(now);
  }

  /**
   * Admission of a new request (it holds no GPU blocks). A request whose episode is pending
   * stays deferred. One whose episode ended (resolved or recompute) has it closed and goes
   * through the chain. Otherwise, with secondary tiers, the uncached prompt tail is classified
   * first: if its first block that is neither GPU- nor CPU-resident is being promoted, or is
   * held by a secondary tier, an episode is registered and the request is deferred. BLIS
   * reports every new episode as a failed admission, including a warm one whose promotion the
   * gate refused at once (recompute, not pending): callers tell a skip from a stall with
   * {@link isDeferred}, as BLIS's batch formation does.
   *
   * The chain path reloads the CPU-resident blocks that follow the GPU-cached prefix onto the
   * GPU free list (at most as many as the GPU had free blocks), stops at a block still being
   * promoted, and at the first block the CPU lacks fires one promotion of the run that the
   * first secondary tier holding it holds, then stops. Returns the GPU-cached prefix length
   * afterwards.
   */
  admit(key: number, hashes: ArrayLike<number>, promptBlocks: number, now: number): number {
    if (this.final !== undefined) throw retiredTierError('admit');
    this.clock = now;
    this.reloadedLast = 0;
    const n = Math.min(promptBlocks, hashes.length);
    const start = this.gpu.cachedPrefixBlocks(hashes, n);
    const e = this.deferrals.episode(key);
    if (e !== undefined) {
      if (!e.resolved && !e.recompute) return DEFERRED;
      this.deferrals.close(key);
    } else if (this.station !== null) {
      const kind = this.classify(hashes, start, n);
      if (kind === FETCH_PENDING) {
        this.deferrals.registerPending(key, hashes[this.runFrom], now);
        return DEFERRED;
      }
      if (kind === FETCH_SECONDARY) {
        this.deferrals.registerSecondary(key, hashes, this.runFrom, this.runLen, this.runTier, now);
        return DEFERRED;
      }
    }
    this.reloadThroughChain(hashes, start, n);
    return this.gpu.cachedPrefixBlocks(hashes, n);
  }

  /** Reports reloads and refused promotions to `listener` (CPU evictions are not reported by this model). */
  watch(listener: KVTierListener | undefined): void {
    this.listener = listener;
  }

  /** Counts a GPU allocation that failed after an admission that reloaded nothing. */
  allocationFailed(): void {
    this.offloadMissCount++;
  }

  /** Forgets `key`'s deferral episode (timed out, evicted by the gateway, redirected). */
  clearDeferred(key: number): void {
    this.deferrals.close(key);
  }

  /** True while `key` waits on a fetch (an episode neither resolved nor sent to recompute), as BLIS's `IsDeferred`. */
  isDeferred(key: number): boolean {
    return this.deferrals.isPending(key);
  }

  /** Always 0: reloads are free and fetches delay admission instead. */
  consumeTransferLatency(): number {
    return 0;
  }

  /**
   * The store path: for each running request, its blocks below `floor(offloadable / B)` (the
   * offloadable tokens being its held blocks' tokens, capped by its prompt length when
   * `offloadPromptOnly`) that carry a hash are touched on the CPU tier if there, else stored,
   * and a newly stored block is pinned once per secondary tier and written to each at `now`.
   * A store the full, locked CPU tier refuses is skipped.
   */
  mirror(batch: MirrorBatch, now: number): void {
    if (this.final !== undefined) throw retiredTierError('mirror');
    const { owners, inputTokens, count } = batch;
    this.clock = now;
    const gpu = this.gpu;
    const cpu = this.cpu;
    const bs = gpu.blockSizeTokens;
    const chunkTokens = bs * this.blocksPerChunk;
    const promptOnly = this.config.offloadPromptOnly;
    for (let r = 0; r < count; r++) {
      const owner = owners[r];
      const held = gpu.blocksHeldBy(owner);
      if (held === 0) continue;
      let tokens = held * bs;
      if (promptOnly && inputTokens[r] < tokens) tokens = inputTokens[r];
      const limit = Math.min(held, Math.floor(tokens / chunkTokens) * this.blocksPerChunk);
      for (let i = 0; i < limit; i++) {
        const h = gpu.blockHash(gpu.ownerBlock(owner, i));
        if (h === -1 || cpu.touchIfPresent(h)) continue;
        if (!cpu.store(h)) {
          this.mirrorSkipped++;
          continue;
        }
        this.mirrored++;
        this.cascade(h);
      }
    }
  }

  /** BLIS's offload `CacheHitRate`: GPU hits over GPU hits, misses and failed allocations no tier helped. */
  cacheHitRate(): number {
    return tierCacheHitRate(this.stats());
  }

  /** BLIS's offload `KVThrashingRate`: the share of promotions the evictable gate refused. */
  thrashingRate(): number {
    return tierThrashingRate(this.stats());
  }

  stats(): KVTierStats {
    if (this.final !== undefined) return { ...this.final, secondaryWrites: this.final.secondaryWrites.slice() };
    const s = this.gpu.stats();
    return {
      kind: 'offload',
      cpuCapacityBlocks: this.cpu.capacity,
      gpuHits: s.cacheHits,
      gpuMisses: s.cacheMisses,
      tierMisses: this.offloadMissCount,
      mirrored: this.mirrored,
      reloaded: this.reloadCount,
      cpuEvictions: this.cpu.evictions,
      mirrorSkipped: this.mirrorSkipped,
      promotionsFired: this.promotionsFired,
      promotionsFailed: this.promotionsFailed,
      deferrals: this.deferrals.started,
      secondaryWrites: this.writesLanded.slice(),
      transferLatencyUs: 0,
    };
  }

  /**
   * Transfers still in flight are dropped with the station: their completions would only ever
   * be applied by a later step, and a retired replica takes none.
   */
  retire(): void {
    if (this.final !== undefined) return;
    this.final = this.stats();
    this.cpu = new CpuStagingTier(1);
    this.tiers = [];
    this.station = null;
    this.deferrals = new DeferralBook(this.cpu, this.promotions);
    this.readRuns.clear();
  }

  /** Checks the CPU tier (BC-C8, BC-C4), the station (BC-S1, BC-S2) and the GPU cache; throws on a violation. */
  checkConsistency(): void {
    this.cpu.checkConsistency();
    this.station?.checkConsistency();
    this.gpu.checkConsistency();
  }

  /**
   * Reserves CPU slots for `count` keys of `keys` from `from` (all or nothing, BC-C5) and
   * submits one read of the granted blocks from `tier`; counts a refusal.
   */
  private firePromotion(keys: ArrayLike<number>, from: number, count: number, tier: number): boolean {
    const granted = this.cpu.prepareStore(keys, from, count);
    if (granted === 0) {
      this.promotionsFailed++;
      this.listener?.onPromotionRefused?.(keys[from], this.clock);
      return false;
    }
    const id = (this.station as TransferStation).submit(tier, TransferStation.READ, granted * this.perBlockBytes, this.clock);
    this.promotionsFired++;
    const run: number[] = [];
    for (let i = from; i < from + count; i++) run.push(keys[i]);
    this.readRuns.set(id, run);
    return true;
  }

  /** The chain's read walk over prompt blocks [start, n); see {@link admit}. */
  private reloadThroughChain(hashes: ArrayLike<number>, start: number, n: number): void {
    const gpu = this.gpu;
    const cpu = this.cpu;
    let maxReloads = gpu.freeBlocks;
    let reloaded = 0;
    for (let i = start; i < n; i++) {
      const h = hashes[i];
      if (gpu.holdsHash(h)) continue;
      const state = cpu.lookup(h);
      if (state === CPU_HIT) {
        // As in the CPU model: the request's own GPU-cached prefix is kept out of the reloads' way.
        if (reloaded === 0) maxReloads -= gpu.keepFree(hashes, start);
        if (reloaded >= maxReloads || !gpu.placeFreeBlock(h)) break;
        cpu.touchKey(h);
        reloaded++;
        this.listener?.onReload?.(h, this.clock);
        continue;
      }
      if (state === CPU_MISS && this.gatherRun(hashes, i, n)) this.firePromotion(hashes, this.runFrom, this.runLen, this.runTier);
      break;
    }
    this.reloadCount += reloaded;
    this.reloadedLast = reloaded;
  }

  /**
   * Read-only classification of a new admission's uncached tail: GPU- and CPU-ready blocks are
   * skipped; the first block being promoted gives FETCH_PENDING, the first CPU miss a secondary
   * tier holds gives FETCH_SECONDARY (with its run), a genuine miss or the end FETCH_NONE.
   */
  private classify(hashes: ArrayLike<number>, start: number, n: number): number {
    for (let i = start; i < n; i++) {
      const h = hashes[i];
      if (this.gpu.holdsHash(h)) continue;
      const state = this.cpu.lookup(h);
      if (state === CPU_HIT) continue;
      if (state === CPU_HIT_PENDING) {
        this.runFrom = i;
        this.runLen = 1;
        this.runTier = -1;
        return FETCH_PENDING;
      }
      return this.gatherRun(hashes, i, n) ? FETCH_SECONDARY : FETCH_NONE;
    }
    return FETCH_NONE;
  }

  /**
   * The run from block i: i itself, held by the first secondary tier that holds it, and the
   * following blocks that are off the GPU, missing on the CPU and first held by the same tier.
   * False when no secondary tier holds block i.
   */
  private gatherRun(hashes: ArrayLike<number>, i: number, n: number): boolean {
    if (this.station === null) return false;
    const tier = firstHoldingTier(this.tiers, hashes[i]);
    if (tier < 0) return false;
    let j = i + 1;
    while (j < n) {
      const h = hashes[j];
      if (this.gpu.holdsHash(h) || this.cpu.lookup(h) !== CPU_MISS || firstHoldingTier(this.tiers, h) !== tier) break;
      j++;
    }
    this.runFrom = i;
    this.runLen = j - i;
    this.runTier = tier;
    return true;
  }

  /** Pins `key` once per secondary tier and submits a one-block write to each. */
  private cascade(key: number): void {
    const station = this.station;
    if (station === null) return;
    for (let t = 0; t < this.tiers.length; t++) {
      this.cpu.pin(key);
      station.submit(t, TransferStation.WRITE, this.perBlockBytes, this.clock, key);
    }
  }
}
