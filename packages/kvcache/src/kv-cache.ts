import { KVCacheError } from './errors.js';
import { HashIndex } from './hash-index.js';
import { OwnerBlocks } from './owner-blocks.js';

const NONE = -1;
/** Field offsets within a block's record in KVCache.blocks. */
const REF = 0;
const TOKENS = 1;
const PREV_FREE = 2;
const NEXT_FREE = 3;
const BLOCK_FIELDS = 4;

export interface KVCacheOptions {
  totalBlocks: number;
  /** Tokens per block; vLLM's and BLIS's default is 16. */
  blockSizeTokens?: number;
}

/** Counters a cache keeps over its lifetime. */
export interface KVCacheStats {
  /** Blocks reused through the prefix cache. */
  cacheHits: number;
  /** Blocks filled fresh. */
  cacheMisses: number;
  /** Allocation calls that returned false. */
  allocationFailures: number;
}

/**
 * A paged KV cache with vLLM's prefix caching, following BLIS's block semantics exactly.
 *
 * - Blocks hold `blockSizeTokens` tokens. A block that becomes full during prefill is
 *   registered under its hierarchical prefix hash (supplied by the caller, one per full
 *   prompt block), so a request admitted later, even later in the same step, can reuse it.
 * - Freed blocks keep their hash and join the tail of an LRU free list; allocation takes
 *   from the head, evicting (unregistering) whatever hash that block still carried.
 *   A request's blocks are freed last-block-first, so its tail is evicted first.
 * - Multi-block allocation is transactional: on failure every mutation is undone.
 *
 * Owners are small non-negative integers chosen by the caller (the engine uses a request's
 * slot). The cache never learns what a request is.
 */
export class KVCache {
  readonly totalBlocks: number;
  readonly blockSizeTokens: number;

  /**
   * Per-block reference count, stored tokens and free-list links, interleaved (BLOCK_FIELDS
   * per block) so that touching a block costs one cache line, not four: with tens of
   * thousands of blocks per instance the cache's time goes to memory, not arithmetic.
   */
  private readonly blocks: Int32Array;
  /** Hash a block is registered under, or NaN. */
  private readonly blockHash: Float64Array;
  private freeHead = NONE;
  private freeTail = NONE;
  private used = 0;
  private readonly hashToBlock: HashIndex;
  /** Block lists by owner id; owners are dense small integers, so an array beats a Map. */
  private readonly owners: (OwnerBlocks | undefined)[] = [];

  private hits = 0;
  private misses = 0;
  private failures = 0;

  // Scratch for rollback, reused across calls.
  private newBlocks = new Int32Array(64);
  private newBlocksOrigHash = new Float64Array(64);
  private attached = new Int32Array(64);
  private attachedWasInUse = new Uint8Array(64);

  constructor(opts: KVCacheOptions) {
    const total = opts.totalBlocks;
    const bs = opts.blockSizeTokens ?? 16;
    if (!Number.isInteger(total) || total <= 0) throw new KVCacheError(`totalBlocks must be a positive integer, found ${total}`);
    if (!Number.isInteger(bs) || bs <= 0) throw new KVCacheError(`blockSizeTokens must be a positive integer, found ${bs}`);
    this.totalBlocks = total;
    this.blockSizeTokens = bs;
    this.blocks = new Int32Array(total * BLOCK_FIELDS);
    this.blockHash = new Float64Array(total).fill(Number.NaN);
    this.hashToBlock = new HashIndex(total);
    for (let i = 0; i < total; i++) this.appendFree(i);
  }

  get usedBlocks(): number {
    return this.used;
  }

  get freeBlocks(): number {
    return this.totalBlocks - this.used;
  }

  get utilization(): number {
    return this.used / this.totalBlocks;
  }

  /** Cumulative share of blocks served from the prefix cache (0 before any allocation). */
  get cacheHitRate(): number {
    const t = this.hits + this.misses;
    return t === 0 ? 0 : this.hits / t;
  }

  stats(): KVCacheStats {
    return { cacheHits: this.hits, cacheMisses: this.misses, allocationFailures: this.failures };
  }

  /** Number of leading `hashes` whose blocks the cache still holds (in use or revivable). */
  cachedPrefixBlocks(hashes: ArrayLike<number>, maxBlocks = hashes.length): number {
    const n = Math.min(maxBlocks, hashes.length);
    let i = 0;
    while (i < n && this.lookup(hashes[i]) !== NONE) i++;
    return i;
  }

  /** Blocks currently held by `owner` (0 when none). */
  blocksHeldBy(owner: number): number {
    return this.owners[owner]?.length ?? 0;
  }

  /** Tokens currently stored for `owner`. */
  tokensHeldBy(owner: number): number {
    return this.owners[owner]?.tokens ?? 0;
  }

  /** True when `owner` holds any allocation record. */
  holds(owner: number): boolean {
    return this.owners[owner] !== undefined;
  }

  /** Blocks needed to append `newTokens` tokens for `owner` after its current last block. */
  blocksNeeded(owner: number, newTokens: number): number {
    let effective = newTokens;
    const ob = this.owners[owner];
    if (ob !== undefined && ob.length > 0) {
      const spare = this.blockSizeTokens - this.blocks[ob.last() * BLOCK_FIELDS + TOKENS];
      if (spare > 0 && spare < this.blockSizeTokens) effective -= Math.min(spare, effective);
    }
    return effective > 0 ? Math.ceil(effective / this.blockSizeTokens) : 0;
  }

  /**
   * Stores `numTokens` more tokens for `owner`, all or nothing.
   *
   * On an owner's first allocation the first `cachedBlocks` blocks of `hashes` are claimed
   * from the prefix cache (their tokens count as stored) before new blocks are filled.
   * `prefill` says the tokens are prompt tokens: new full blocks are then registered under
   * `hashes[k]` for the k-th full block of the owner. Returns false, with no state changed,
   * when the blocks do not fit.
   */
  allocate(owner: number, numTokens: number, hashes: ArrayLike<number>, cachedBlocks: number, prefill: boolean): boolean {
    if (!Number.isInteger(numTokens) || numTokens < 0) throw new KVCacheError(`cannot allocate ${numTokens} tokens`);
    if (!Number.isInteger(cachedBlocks) || cachedBlocks < 0) throw new KVCacheError(`cachedBlocks must be >= 0, found ${cachedBlocks}`);
    if (!Number.isInteger(owner) || owner < 0) throw new KVCacheError(`owner must be a non-negative integer, found ${owner}`);
    const bs = this.blockSizeTokens;
    if (prefill && this.blocksNeeded(owner, numTokens) > this.freeBlocks) {
      this.failures++;
      return false;
    }
    let ob = this.owners[owner];
    const existed = ob !== undefined;
    const prevLength = ob?.length ?? 0;
    const prevTokens = ob?.tokens ?? 0;
    let nAttached = 0;
    let nNew = 0;

    if (ob === undefined) {
      ob = new OwnerBlocks(Math.max(4, cachedBlocks + Math.ceil(numTokens / bs) + 1));
      this.owners[owner] = ob;
      // Claim cached prefix blocks. BLIS skips this when no new tokens follow (a fully cached,
      // block-aligned prompt); we claim them anyway so such a request holds what it reads.
      const reach = Math.min(cachedBlocks, hashes.length);
      if (reach > this.attached.length) this.growAttached(reach);
      for (let i = 0; i < reach; i++) {
        const id = this.lookup(hashes[i]);
        if (id === NONE) {
          this.rollback(owner, ob, existed, prevLength, prevTokens, nAttached, 0);
          throw new KVCacheError(`block ${i} of owner ${owner} is not cached; look it up in the same step`);
        }
        const wasInUse = this.blocks[id * BLOCK_FIELDS + REF] > 0;
        this.attached[nAttached] = id;
        this.attachedWasInUse[nAttached++] = wasInUse ? 1 : 0;
        this.blocks[id * BLOCK_FIELDS + REF]++;
        if (!wasInUse) {
          this.used++;
          this.removeFree(id);
        }
        this.hits++;
        ob.push(id);
        ob.tokens += bs;
      }
    }

    let remaining = numTokens;
    let topUpBlock = NONE;
    let topUpFrom = 0;
    // Fill the partially filled last block first.
    const lastId = ob.last();
    if (remaining > 0 && lastId !== NONE) {
      const inBlock = this.blocks[lastId * BLOCK_FIELDS + TOKENS];
      if (inBlock > 0 && inBlock < bs) {
        const take = Math.min(bs - inBlock, remaining);
        this.blocks[lastId * BLOCK_FIELDS + TOKENS] = inBlock + take;
        ob.tokens += take;
        remaining -= take;
        if (inBlock + take === bs) this.register(lastId, ob.tokens / bs - 1, hashes);
        topUpBlock = lastId;
        topUpFrom = inBlock;
      }
    }
    // Then whole new blocks.
    while (remaining > 0) {
      const id = this.freeHead;
      if (id === NONE) {
        if (topUpBlock !== NONE) this.undoTopUp(topUpBlock, topUpFrom);
        this.rollback(owner, ob, existed, prevLength, prevTokens, nAttached, nNew);
        this.failures++;
        return false;
      }
      if (nNew === this.newBlocks.length) this.growNew();
      this.newBlocksOrigHash[nNew] = this.blockHash[id];
      this.newBlocks[nNew++] = id;
      this.popFree(id);
      const take = Math.min(bs, remaining);
      this.blocks[id * BLOCK_FIELDS + TOKENS] = take;
      this.blocks[id * BLOCK_FIELDS + REF] = 1;
      this.used++;
      this.misses++;
      ob.push(id);
      ob.tokens += take;
      remaining -= take;
      if (take === bs && prefill) this.register(id, ob.tokens / bs - 1, hashes);
    }
    return true;
  }

  /**
   * Stores one generated token for `owner`: the decode step's allocation. Equivalent to
   * `allocate(owner, 1, hashes, 0, false)` but skips the general path when the last block has
   * room, which is every decode step but one per block.
   */
  appendToken(owner: number, hashes: ArrayLike<number>): boolean {
    const ob = this.owners[owner];
    if (ob !== undefined && ob.length > 0) {
      const last = ob.ids[ob.length - 1];
      const inBlock = this.blocks[last * BLOCK_FIELDS + TOKENS];
      const bs = this.blockSizeTokens;
      if (inBlock > 0 && inBlock < bs) {
        this.blocks[last * BLOCK_FIELDS + TOKENS] = inBlock + 1;
        ob.tokens++;
        // The token that fills a block completes it: register it, as the general path would.
        if (inBlock + 1 === bs) this.register(last, ob.tokens / bs - 1, hashes);
        return true;
      }
    }
    return this.allocate(owner, 1, hashes, 0, false);
  }

  /**
   * Tokens `owner` can still append to its partially filled last block without changing
   * anything but token counts: 0 when the block is full, or when filling it would register a
   * prefix hash (its index is below `hashes.length`). A caller that appends at most this many
   * tokens may therefore hand them over later, in one `allocate` together with the token that
   * opens the next block: block usage, the free list and the prefix index evolve exactly as
   * with one call per token. Until then {@link tokensHeldBy} lags behind by the deferred tokens.
   */
  deferrableTokens(owner: number, hashes: ArrayLike<number>): number {
    const ob = this.owners[owner];
    if (ob === undefined || ob.length === 0 || ob.length - 1 < hashes.length) return 0;
    const inBlock = this.blocks[ob.last() * BLOCK_FIELDS + TOKENS];
    return inBlock > 0 && inBlock < this.blockSizeTokens ? this.blockSizeTokens - inBlock : 0;
  }

  /** Frees everything `owner` holds, last block first. Cached hashes survive for reuse. */
  release(owner: number): void {
    const ob = this.owners[owner];
    if (ob === undefined) throw new KVCacheError(`owner ${owner} holds no blocks (double release?)`);
    this.owners[owner] = undefined;
    for (let i = ob.length - 1; i >= 0; i--) {
      const id = ob.ids[i];
      const rc = --this.blocks[id * BLOCK_FIELDS + REF];
      if (rc === 0) {
        this.used--;
        this.appendFree(id);
      } else if (rc < 0) {
        throw new KVCacheError(`block ${id} released more often than it was claimed`);
      }
    }
  }

  /** Checks INV-4 and the free list against the counters; throws on any inconsistency. */
  checkConsistency(): void {
    let free = 0;
    let prev = NONE;
    for (let id = this.freeHead; id !== NONE; id = this.blocks[id * BLOCK_FIELDS + NEXT_FREE]) {
      if (this.blocks[id * BLOCK_FIELDS + REF] !== 0) throw new KVCacheError(`block ${id} is on the free list with refcount ${this.blocks[id * BLOCK_FIELDS + REF]}`);
      if (this.blocks[id * BLOCK_FIELDS + PREV_FREE] !== prev) throw new KVCacheError(`free list broken at block ${id}`);
      prev = id;
      if (++free > this.totalBlocks) throw new KVCacheError('free list has a cycle');
    }
    if (free + this.used !== this.totalBlocks)
      throw new KVCacheError(`INV-4 violated: used ${this.used} + free ${free} != total ${this.totalBlocks}`);
    let referenced = 0;
    for (let id = 0; id < this.totalBlocks; id++) if (this.blocks[id * BLOCK_FIELDS + REF] > 0) referenced++;
    if (referenced !== this.used) throw new KVCacheError(`used counter ${this.used} != blocks with refcount ${referenced}`);
    this.hashToBlock.forEach((hash, id) => {
      if (this.blockHash[id] !== hash) throw new KVCacheError(`hash index maps ${hash} to block ${id}, which carries ${this.blockHash[id]}`);
    });
  }

  /** The block registered under `hash`, or NONE. */
  private lookup(hash: number): number {
    const id = this.hashToBlock.get(hash);
    return id !== NONE && this.blockHash[id] === hash ? id : NONE;
  }

  /** Forgets `hash` if the index maps it to any block carrying it (BLIS deletes by hash). */
  private unregister(hash: number): void {
    const id = this.hashToBlock.get(hash);
    if (id !== NONE && this.blockHash[id] === hash) this.hashToBlock.delete(hash);
  }

  private register(id: number, k: number, hashes: ArrayLike<number>): void {
    if (k < hashes.length) {
      const h = hashes[k];
      this.blockHash[id] = h;
      this.hashToBlock.set(h, id);
    }
  }

  private popFree(id: number): void {
    this.removeFree(id);
    const h = this.blockHash[id];
    if (!Number.isNaN(h)) {
      // Eviction: the hash leaves the index even if a newer block re-registered it (BLIS does the same).
      this.unregister(h);
      this.blockHash[id] = Number.NaN;
    }
    this.blocks[id * BLOCK_FIELDS + TOKENS] = 0;
  }

  private rollback(
    owner: number,
    ob: OwnerBlocks,
    existed: boolean,
    prevLength: number,
    prevTokens: number,
    nAttached: number,
    nNew: number,
  ): void {
    for (let i = nNew - 1; i >= 0; i--) {
      const id = this.newBlocks[i];
      const h = this.blockHash[id];
      if (!Number.isNaN(h)) this.unregister(h);
      const orig = this.newBlocksOrigHash[i];
      this.blockHash[id] = orig;
      if (!Number.isNaN(orig)) this.hashToBlock.set(orig, id);
      this.blocks[id * BLOCK_FIELDS + REF] = 0;
      this.blocks[id * BLOCK_FIELDS + TOKENS] = 0;
      this.used--;
      this.misses--;
      this.prependFree(id);
    }
    for (let i = nAttached - 1; i >= 0; i--) {
      const id = this.attached[i];
      this.blocks[id * BLOCK_FIELDS + REF]--;
      this.hits--;
      if (this.attachedWasInUse[i] === 0 && this.blocks[id * BLOCK_FIELDS + REF] === 0) {
        this.used--;
        this.appendFree(id);
      }
    }
    if (!existed) {
      this.owners[owner] = undefined;
    } else {
      ob.length = prevLength;
      ob.tokens = prevTokens;
    }
  }

  private undoTopUp(id: number, from: number): void {
    if (this.blocks[id * BLOCK_FIELDS + TOKENS] === this.blockSizeTokens) {
      const h = this.blockHash[id];
      if (!Number.isNaN(h)) {
        this.hashToBlock.delete(h, id);
        this.blockHash[id] = Number.NaN;
      }
    }
    this.blocks[id * BLOCK_FIELDS + TOKENS] = from;
  }

  private appendFree(id: number): void {
    this.blocks[id * BLOCK_FIELDS + NEXT_FREE] = NONE;
    this.blocks[id * BLOCK_FIELDS + PREV_FREE] = this.freeTail;
    if (this.freeTail !== NONE) this.blocks[this.freeTail * BLOCK_FIELDS + NEXT_FREE] = id;
    else this.freeHead = id;
    this.freeTail = id;
  }

  private prependFree(id: number): void {
    this.blocks[id * BLOCK_FIELDS + PREV_FREE] = NONE;
    this.blocks[id * BLOCK_FIELDS + NEXT_FREE] = this.freeHead;
    if (this.freeHead !== NONE) this.blocks[this.freeHead * BLOCK_FIELDS + PREV_FREE] = id;
    else this.freeTail = id;
    this.freeHead = id;
  }

  private removeFree(id: number): void {
    const p = this.blocks[id * BLOCK_FIELDS + PREV_FREE];
    const n = this.blocks[id * BLOCK_FIELDS + NEXT_FREE];
    if (p !== NONE) this.blocks[p * BLOCK_FIELDS + NEXT_FREE] = n;
    else this.freeHead = n;
    if (n !== NONE) this.blocks[n * BLOCK_FIELDS + PREV_FREE] = p;
    else this.freeTail = p;
    this.blocks[id * BLOCK_FIELDS + PREV_FREE] = NONE;
    this.blocks[id * BLOCK_FIELDS + NEXT_FREE] = NONE;
  }

  private growNew(): void {
    const n = new Int32Array(this.newBlocks.length * 2);
    n.set(this.newBlocks);
    this.newBlocks = n;
    const h = new Float64Array(this.newBlocksOrigHash.length * 2);
    h.set(this.newBlocksOrigHash);
    this.newBlocksOrigHash = h;
  }

  private growAttached(min: number): void {
    let c = this.attached.length;
    while (c < min) c *= 2;
    this.attached = new Int32Array(c);
    this.attachedWasInUse = new Uint8Array(c);
  }
}
