import type { KVCache } from '../kv-cache.js';
import { KVCacheError } from '../errors.js';
import { CpuLru } from './cpu-lru.js';
import { type KVTierListener, type KVTierStats, type KVTiers, type MirrorBatch, retiredTierError } from './kv-tiers.js';
import type { CpuTierConfig } from './tier-config.js';
import { tierCacheHitRate, tierThrashingRate } from './tier-rates.js';

const NONE = -1;
const NO_SLOTS = new Int32Array(0);

/**
 * BLIS's legacy GPU+CPU model (`--kv-cpu-blocks`, reference §1.3), a vLLM-v1 style write-through
 * mirror. After every step each running request's full, hashed blocks are copied to a CPU LRU
 * (or refreshed there); the GPU is never changed by mirroring. When a new request is admitted,
 * the prompt blocks after its GPU-cached prefix that the CPU still holds are reloaded onto the
 * GPU free list, so its allocation claims them as prefix hits; each reloaded block adds
 * `baseLatency + ceil(blockSize / bandwidth)` µs to the step that reloads it.
 *
 * Only new requests reload (vLLM's connector is asked for waiting requests only); BLIS also walks
 * for running requests mid-prefill. See docs/engine-semantics.md.
 */
export class CpuTier implements KVTiers {
  readonly config: CpuTierConfig;
  private readonly gpu: KVCache;
  private lru: CpuLru;
  private readonly blockSize: number;
  private readonly perBlockUs: number;
  /**
   * Per KV owner, the CPU slot each of its blocks was last found in, so the per-step mirror
   * finds a block's entry with a read and a check rather than a hash lookup. A slot is trusted
   * only while it still holds the block's hash.
   */
  private ownerSlots: Int32Array[] = [];
  /**
   * Per KV owner, the block hashes of the request whose blocks form its verified segment and how
   * many: while the segment stays valid, mirroring those blocks is one O(1) touch. A request
   * whose blocks are not contiguous (a prefix shared with a later request) is re-verified after
   * a back-off of steps that doubles each time it fails.
   */
  private segKey = new Float64Array(64).fill(NONE);
  private segLen = new Int32Array(64);
  private segFirst = new Int32Array(64);
  private segLast = new Int32Array(64);
  private segBackoff = new Int32Array(64);
  private segWait = new Int32Array(64);
  /** Scratch: batch positions to verify as segments once the mirror is done. */
  private verify = new Int32Array(64);
  private pendingUs = 0;
  private reloads = 0;
  private misses = 0;
  private mirrors = 0;
  private chargedUs = 0;
  lastReloaded = 0;
  private listener: KVTierListener | undefined;
  /** The GPU layout and CPU list versions the last mirror left behind. */
  private mirroredLayout = -1;
  private mirroredMutations = -1;
  /** What {@link stats} answered when the tier was retired; undefined while it is live. */
  private final: KVTierStats | undefined;

  constructor(config: CpuTierConfig, gpu: KVCache) {
    if (!Number.isInteger(config.cpuBlocks) || config.cpuBlocks <= 0) throw new KVCacheError(`cpuBlocks must be a positive integer, found ${config.cpuBlocks}`);
    if (!(config.transferBandwidth > 0) || !Number.isFinite(config.transferBandwidth))
      throw new KVCacheError(`transferBandwidth must be finite and > 0, found ${config.transferBandwidth}`);
    if (!(config.transferBaseLatencyUs >= 0)) throw new KVCacheError(`transferBaseLatencyUs must be >= 0, found ${config.transferBaseLatencyUs}`);
    this.config = config;
    this.gpu = gpu;
    this.blockSize = gpu.blockSizeTokens;
    this.lru = new CpuLru(config.cpuBlocks);
    this.perBlockUs = config.transferBaseLatencyUs + Math.ceil(this.blockSize / config.transferBandwidth);
  }

  setClock(_now: number): void {}

  watch(listener: KVTierListener | undefined): void {
    this.listener = listener;
    const onEvict = listener?.onCpuEvict;
    // Evictions happen only in the mirror, which sets the LRU's clock first.
    this.lru.onEvict = onEvict === undefined ? undefined : (hash, storedAt) => onEvict.call(listener, hash, storedAt, this.lru.clock);
  }

  pollDeferred(_now: number): void {}

  admit(_key: number, hashes: ArrayLike<number>, promptBlocks: number, now: number): number {
    if (this.final !== undefined) throw retiredTierError('admit');
    const gpu = this.gpu;
    const n = Math.min(promptBlocks, hashes.length);
    const cached = gpu.cachedPrefixBlocks(hashes, n);
    let reloaded = 0;
    // Each reload takes a distinct free block: never more than were free when the walk began.
    let maxReloads = gpu.freeBlocks;
    for (let i = cached; i < n; i++) {
      const h = hashes[i];
      if (gpu.holdsHash(h)) continue;
      const slot = this.lru.find(h);
      // Hashes chain, so nothing after the first block the CPU lacks can be of use.
      if (slot === NONE) break;
      // Before the first reload, keep the request's own GPU-cached prefix out of the blocks the
      // reloads take (BLIS may evict it, then claims blocks that no longer hold it).
      if (reloaded === 0) maxReloads -= gpu.keepFree(hashes, cached);
      if (reloaded >= maxReloads) break;
      gpu.placeFreeBlock(h);
      this.lru.touch(slot);
      this.listener?.onReload?.(h, now);
      reloaded++;
    }
    this.lru.settle();
    this.lastReloaded = reloaded;
    if (reloaded === 0) return cached;
    this.reloads += reloaded;
    this.pendingUs += reloaded * this.perBlockUs;
    return gpu.cachedPrefixBlocks(hashes, n);
  }

  allocationFailed(): void {
    this.misses++;
  }

  clearDeferred(_key: number): void {}

  isDeferred(_key: number): boolean {
    return false;
  }

  consumeTransferLatency(): number {
    const us = this.pendingUs;
    this.pendingUs = 0;
    this.chargedUs += us;
    return us;
  }

  /**
   * Copies each running request's full hashed blocks to the CPU, in batch order, refreshing
   * the ones already there. A request's hashed blocks are its first `min(full blocks, hashes)`
   * ones: the cache registers a block under `hashes[k]` exactly when it fills block k. A request
   * whose blocks form a valid segment costs O(1), plus its blocks filled since.
   */
  mirror(batch: MirrorBatch, now: number): void {
    if (this.final !== undefined) throw retiredTierError('mirror');
    const { count, owners, keys, hashCounts } = batch;
    const gpu = this.gpu;
    const lru = this.lru;
    const bs = this.blockSize;
    lru.clock = now;
    // Nothing held changed and nothing touched the CPU list since a mirror that evicted nothing
    // (so every block it walked is still there): walking the same blocks in the same order
    // would leave the list exactly as it is.
    if (gpu.layoutVersion === this.mirroredLayout && lru.mutations === this.mirroredMutations) return;
    const evictionsBefore = lru.evictions;
    const maxOwner = this.maxOwner(owners, count);
    if (this.segLen.length <= maxOwner) this.growSegments(maxOwner);
    if (this.verify.length < count) this.verify = new Int32Array(count * 2);
    const segLen = this.segLen;
    const segKey = this.segKey;
    const segFirst = this.segFirst;
    const segLast = this.segLast;
    let toVerify = 0;
    for (let r = 0; r < count; r++) {
      const owner = owners[r];
      const m = Math.min(Math.floor(gpu.tokensHeldBy(owner) / bs), hashCounts[r]);
      if (m === 0) continue;
      const key = keys[r];
      const len = segLen[owner];
      // The common case reads only these per-owner numbers: the request's blocks form a valid
      // segment, touched as one.
      const mine = len > 0 && len <= m && segKey[owner] === key && lru.segmentValid(owner);
      if (mine && len === m && lru.touchSegment(owner, segFirst[owner], segLast[owner])) continue;
      let slots = owner < this.ownerSlots.length ? this.ownerSlots[owner] : NO_SLOTS;
      if (slots.length < m) slots = this.growSlots(owner, m);
      const from = mine && len < m && lru.touchSegment(owner, segFirst[owner], segLast[owner]) ? len : 0;
      this.mirrors += lru.touchOrStoreAll(batch.hashesOf(r), slots, from, m);
      if (m < 2) continue;
      if (segKey[owner] !== key) {
        segKey[owner] = key;
        segLen[owner] = 0;
        this.segBackoff[owner] = 0;
        this.segWait[owner] = 0;
      }
      if (this.segWait[owner] > 0) this.segWait[owner]--;
      else this.verify[toVerify++] = r;
    }
    lru.settle();
    for (let k = 0; k < toVerify; k++) {
      const r = this.verify[k];
      const owner = owners[r];
      const m = Math.min(Math.floor(gpu.tokensHeldBy(owner) / bs), hashCounts[r]);
      const slots = this.ownerSlots[owner];
      if (lru.markSegment(owner, slots, batch.hashesOf(r), m)) {
        segLen[owner] = m;
        segFirst[owner] = slots[0];
        segLast[owner] = slots[m - 1];
        this.segBackoff[owner] = 0;
      } else {
        segLen[owner] = 0;
        this.segBackoff[owner] = Math.min(64, this.segBackoff[owner] * 2 + 1);
        this.segWait[owner] = this.segBackoff[owner];
      }
    }
    this.mirroredLayout = lru.evictions === evictionsBefore ? gpu.layoutVersion : -1;
    this.mirroredMutations = lru.mutations;
  }

  private maxOwner(owners: ArrayLike<number>, count: number): number {
    let max = 0;
    for (let r = 0; r < count; r++) if (owners[r] > max) max = owners[r];
    return max;
  }

  private growSegments(maxOwner: number): void {
    const size = Math.max(maxOwner + 1, this.segLen.length * 2);
    const grow = (a: Int32Array) => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.segLen = grow(this.segLen);
    this.segFirst = grow(this.segFirst);
    this.segLast = grow(this.segLast);
    const keys = new Float64Array(size).fill(NONE);
    keys.set(this.segKey);
    this.segKey = keys;
    this.segBackoff = grow(this.segBackoff);
    this.segWait = grow(this.segWait);
  }

  cacheHitRate(): number {
    return tierCacheHitRate(this.stats());
  }

  thrashingRate(): number {
    return tierThrashingRate(this.stats());
  }

  stats(): KVTierStats {
    if (this.final !== undefined) return { ...this.final, secondaryWrites: [] };
    const s = this.gpu.stats();
    return {
      kind: 'cpu',
      cpuCapacityBlocks: this.config.cpuBlocks,
      gpuHits: s.cacheHits,
      gpuMisses: s.cacheMisses,
      tierMisses: this.misses,
      mirrored: this.mirrors,
      reloaded: this.reloads,
      cpuEvictions: this.lru.evictions,
      mirrorSkipped: 0,
      promotionsFired: 0,
      promotionsFailed: 0,
      deferrals: 0,
      secondaryWrites: [],
      transferLatencyUs: this.chargedUs,
    };
  }

  retire(): void {
    if (this.final !== undefined) return;
    this.final = this.stats();
    this.lru = new CpuLru(1);
    this.ownerSlots = [];
    this.segKey = new Float64Array(1).fill(NONE);
    this.segLen = new Int32Array(1);
    this.segFirst = new Int32Array(1);
    this.segLast = new Int32Array(1);
    this.segBackoff = new Int32Array(1);
    this.segWait = new Int32Array(1);
    this.verify = new Int32Array(1);
  }

  /** CPU hashes from least to most recently used (tests and diagnostics). */
  cpuOrder(): number[] {
    return this.lru.order();
  }

  checkConsistency(): void {
    this.lru.checkConsistency();
    this.gpu.checkConsistency();
  }

  private growSlots(owner: number, min: number): Int32Array {
    while (this.ownerSlots.length <= owner) this.ownerSlots.push(NO_SLOTS);
    const old = this.ownerSlots[owner];
    let c = Math.max(16, old.length);
    while (c < min) c *= 2;
    const slots = new Int32Array(c).fill(NONE);
    slots.set(old);
    this.ownerSlots[owner] = slots;
    return slots;
  }
}
