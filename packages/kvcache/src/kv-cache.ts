import { BLOCK_FIELDS, BlockStore, REF } from './block-store.js';
import { type KVCacheSnapshot, type KVCacheStats, blockLayout, checkCacheConsistency } from './cache-inspection.js';
import { KVCacheError } from './errors.js';
import { HashIndex } from './hash-index.js';
import { type KVCacheOptions, checkedKVCacheOptions } from './kv-cache-options.js';
import { DelayedPrefixSignal, type PrefixSignal } from './prefix-signal.js';
import { MIN_OWNER_POOL, OwnerTable } from './owner-table.js';

const NONE = -1;
const INITIAL_INDEX_SLOTS = 2048;

/**
 * A paged KV cache with vLLM's prefix caching, following BLIS's block semantics exactly.
 *
 * - Blocks hold `blockSizeTokens` tokens. A block that becomes full is registered under its
 *   hierarchical prefix hash, supplied by the caller (one per full block it wants cached:
 *   the prompt's, and optionally those its generated tokens will fill), so a request admitted
 *   later, even later in the same step, can reuse it. The partial last block is never registered.
 * - Freed blocks keep their hash and join the tail of an LRU free order; allocation takes
 *   from the head, evicting (unregistering) whatever hash that block still carried.
 *   A request's blocks are freed last-block-first, so its tail is evicted first.
 * - Allocation checks before it acts, as vLLM and BLIS do: a call that fails changes nothing,
 *   not even the LRU order of the cached blocks it would have claimed.
 *
 * Owners are small non-negative integers chosen by the caller; the cache's owner table grows to
 * the largest one, so keep them dense (the engine numbers the requests that hold KV on one
 * instance, reusing numbers as they leave). The cache never learns what a request is.
 */
export class KVCache {
  readonly totalBlocks: number;
  readonly blockSizeTokens: number;

  // Not readonly: retire() swaps each for an empty one, so that their memory can be collected.
  private store: BlockStore;
  private used = 0;
  private hashToBlock: HashIndex;
  private owners = new OwnerTable();
  /** The prefix signal opened on this cache, released with it. */
  private signal: DelayedPrefixSignal | undefined;
  private isRetired = false;

  /** Where preloaded values go, so that the loads are not optimised away. */
  private sink = 0;
  private hits = 0;
  private misses = 0;
  private failures = 0;

  /** Bumped whenever an owner comes or goes or gains a hashed block: see {@link layoutVersion}. */
  private layout = 0;

  /** Scratch: the cached blocks an allocation claims, found by its check. */
  private attached = new Int32Array(64);

  constructor(opts: KVCacheOptions) {
    const { totalBlocks, blockSizeTokens } = checkedKVCacheOptions(opts);
    this.totalBlocks = totalBlocks;
    this.blockSizeTokens = blockSizeTokens;
    this.store = new BlockStore(totalBlocks);
    // Room for a short run's hashes from the start (growing from 16 rebuilt the table some ten
    // times), within the index's cap of twice the blocks.
    this.hashToBlock = new HashIndex(this.store, Math.min(INITIAL_INDEX_SLOTS, 2 * totalBlocks));
  }

  /**
   * Changes whenever the set of owners, or the hashed blocks any of them holds, may have
   * changed: a tier's mirror that finds it and its own state as it left them has nothing to do.
   */
  get layoutVersion(): number {
    return this.layout;
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

  /**
   * A delayed view of the prefix cache's contents for routers (BLIS's `--cache-signal-delay`):
   * it shows the cache as of its last `refresh()`. Opening it starts recording the prefix index's
   * changes, so only a cache that is watched pays for that; a cache has at most one.
   */
  openPrefixSignal(): PrefixSignal {
    if (this.isRetired) throw new KVCacheError('cannot open a prefix signal on a retired cache');
    if (this.hashToBlock.watcher !== undefined) throw new KVCacheError('this cache already has a prefix signal');
    this.signal = new DelayedPrefixSignal(this.hashToBlock);
    return this.signal;
  }

  /** True once {@link retire} has given the cache's memory back. */
  get retired(): boolean {
    return this.isRetired;
  }

  /**
   * Gives back the memory of an empty cache that will never be used again (a replica that left
   * the cluster): its block records, free ring, prefix index, owner table and prefix signal are
   * replaced by empty ones. What results read afterwards stays: `totalBlocks`, `usedBlocks` (0),
   * `utilization`, `cacheHitRate`, `stats()`. The retired cache answers queries as an empty
   * cache (nothing cached, no owner); anything that needs a block (allocating, placing a block,
   * opening a signal) throws a {@link KVCacheError}. Throws, changing nothing, while any owner
   * holds a record. Retiring twice does nothing.
   */
  retire(): void {
    if (this.isRetired) return;
    if (this.used !== 0) throw new KVCacheError(`cannot retire a cache that holds ${this.used} blocks`);
    const owner = this.owners.firstOwner();
    if (owner !== NONE) throw new KVCacheError(`cannot retire a cache while owner ${owner} holds a record`);
    this.isRetired = true;
    this.signal?.release();
    this.signal = undefined;
    this.store = new BlockStore(0);
    this.hashToBlock = new HashIndex(this.store, 0);
    this.owners = new OwnerTable(1, MIN_OWNER_POOL);
    this.attached = new Int32Array(1);
  }

  /** Number of leading `hashes` whose blocks the cache still holds (in use or revivable). */
  cachedPrefixBlocks(hashes: ArrayLike<number>, maxBlocks = hashes.length): number {
    const n = Math.min(maxBlocks, hashes.length);
    let i = 0;
    while (i < n && this.hashToBlock.get(hashes[i]) !== NONE) i++;
    return i;
  }

  /** Blocks currently held by `owner` (0 when none). */
  blocksHeldBy(owner: number): number {
    return this.owners.length(owner);
  }

  /** Tokens currently stored for `owner`. */
  tokensHeldBy(owner: number): number {
    return this.owners.tokens(owner);
  }

  /** True when `owner` holds any allocation record. */
  holds(owner: number): boolean {
    return this.owners.has(owner);
  }

  /** Blocks needed to append `newTokens` tokens for `owner` after its current last block. */
  blocksNeeded(owner: number, newTokens: number): number {
    let effective = newTokens;
    const inBlock = this.lastBlockTokens(owner);
    if (inBlock > 0 && inBlock < this.blockSizeTokens) effective -= Math.min(this.blockSizeTokens - inBlock, effective);
    return effective > 0 ? Math.ceil(effective / this.blockSizeTokens) : 0;
  }

  /**
   * Tokens in `owner`'s last block (0 when it holds none). Every block of an owner but the last
   * is full, so this needs the owner's counts only, not the block.
   */
  private lastBlockTokens(owner: number): number {
    const length = this.owners.length(owner);
    return length === 0 ? 0 : this.owners.tokens(owner) - (length - 1) * this.blockSizeTokens;
  }

  /**
   * Stores `numTokens` more tokens for `owner`, all or nothing.
   *
   * On an owner's first allocation the first `cachedBlocks` blocks of `hashes` are claimed
   * from the prefix cache (their tokens count as stored) before new blocks are filled.
   * Every block this call completes is registered under `hashes[k]`, k its index in the
   * owner's list, when `hashes` reaches that far: prompt blocks, and generated ones when the
   * caller hashes output positions too. `prefill` says whole blocks of prompt tokens may
   * follow, whose prefix-index slots are worth reading ahead.
   * Returns false when the blocks do not fit; the cache is then exactly as it was, LRU order
   * included.
   */
  allocate(owner: number, numTokens: number, hashes: ArrayLike<number>, cachedBlocks: number, prefill: boolean): boolean {
    if (this.isRetired) throw new KVCacheError(`cannot allocate for owner ${owner}: the cache was retired`);
    if (!Number.isInteger(numTokens) || numTokens < 0) throw new KVCacheError(`cannot allocate ${numTokens} tokens`);
    if (!Number.isInteger(cachedBlocks) || cachedBlocks < 0) throw new KVCacheError(`cachedBlocks must be >= 0, found ${cachedBlocks}`);
    if (!Number.isInteger(owner) || owner < 0) throw new KVCacheError(`owner must be a non-negative integer, found ${owner}`);
    const bs = this.blockSizeTokens;
    const owners = this.owners;
    const rec = this.store.rec;
    const existed = owners.has(owner);
    // Check, then act (vLLM's allocate_slots, BLIS's AllocateKVBlocks): the blocks needed are the
    // new ones plus the cached ones that sit free and will leave the free list when claimed. A
    // claim-then-undo would put those back at the fresh end of the LRU order, keeping a stuck
    // request's prefix alive that vLLM lets age out.
    let needed = this.blocksNeeded(owner, numTokens);
    const reach = existed ? 0 : Math.min(cachedBlocks, hashes.length);
    if (reach > this.attached.length) this.growAttached(reach);
    for (let i = 0; i < reach; i++) {
      const id = this.hashToBlock.get(hashes[i]);
      if (id === NONE) throw new KVCacheError(`block ${i} of owner ${owner} is not cached; look it up in the same step`);
      this.attached[i] = id;
      // Counted per entry, as BLIS does; hierarchical hashes never name one block twice.
      if (rec[id * BLOCK_FIELDS + REF] === 0) needed++;
    }
    if (needed > this.freeBlocks) {
      this.failures++;
      return false;
    }

    if (!existed) {
      this.layout++;
      owners.open(owner, cachedBlocks + Math.ceil(numTokens / bs) + 1);
      // Claim cached prefix blocks. BLIS skips this when no new tokens follow (a fully cached,
      // block-aligned prompt); we claim them anyway so such a request holds what it reads.
      for (let i = 0; i < reach; i++) {
        const id = this.attached[i];
        if (rec[id * BLOCK_FIELDS + REF]++ === 0) {
          // Leaving the free ring needs no unlinking: the block's ring entry just goes stale.
          this.store.revive(id);
          this.used++;
        }
        this.hits++;
        owners.push(owner, id, true);
        owners.addTokens(owner, bs);
      }
    }

    let remaining = numTokens;
    // Fill the partially filled last block first.
    if (remaining > 0) {
      const inBlock = this.lastBlockTokens(owner);
      if (inBlock > 0 && inBlock < bs) {
        const take = Math.min(bs - inBlock, remaining);
        owners.addTokens(owner, take);
        remaining -= take;
        // A block completed here is registered if it has a hash: a prompt block, or a generated
        // one when the caller hashes output positions too (multi-turn sessions).
        if (inBlock + take === bs) {
          const k = owners.tokens(owner) / bs - 1;
          if (k < hashes.length) this.register(owner, k, owners.last(owner), hashes);
        }
      }
    }
    // Then whole new blocks. Their prefix-index slots are read first, all at once, so that the
    // cache misses of the registrations below overlap rather than queue.
    if (prefill && remaining >= bs) {
      const from = owners.tokens(owner) / bs;
      const to = Math.min(hashes.length, from + Math.floor(remaining / bs));
      for (let k = from; k < to; k++) this.sink ^= this.hashToBlock.preload(hashes[k]);
    }
    while (remaining > 0) {
      // The check above counted these blocks; running out here would be a bookkeeping bug.
      if (this.used === this.totalBlocks) throw new KVCacheError(`INV-4: no free block for owner ${owner} after the check passed`);
      // The block carries no hash now, so its record is left alone (see BlockStore): it is
      // tracked, with its reference count, only if it is registered below.
      const id = this.takeFreeBlock();
      const take = Math.min(bs, remaining);
      this.used++;
      this.misses++;
      owners.push(owner, id);
      owners.addTokens(owner, take);
      remaining -= take;
      // Decode fills a new block whole only with 1-token blocks; it is registered like any other.
      if (take === bs) this.register(owner, owners.length(owner) - 1, id, hashes);
    }
    return true;
  }

  /**
   * Stores one generated token for `owner`: the decode step's allocation. Equivalent to
   * `allocate(owner, 1, hashes, 0, false)` but skips the general path when the last block has
   * room, which is every decode step but one per block.
   */
  appendToken(owner: number, hashes: ArrayLike<number>): boolean {
    const inBlock = this.lastBlockTokens(owner);
    const bs = this.blockSizeTokens;
    if (inBlock > 0 && inBlock < bs) {
      this.owners.addTokens(owner, 1);
      // The token that fills a block completes it: register it, as the general path would.
      if (inBlock + 1 === bs) this.register(owner, this.owners.tokens(owner) / bs - 1, this.owners.last(owner), hashes);
      return true;
    }
    return this.allocate(owner, 1, hashes, 0, false);
  }

  /**
   * Stores `numTokens` tokens for `owner` when its deferred decode tokens run out: exactly
   * `allocate(owner, numTokens, hashes, 0, false)` followed by {@link deferrableTokens}, whose
   * value it returns, or -1 when the allocation fails (which then changes nothing but the
   * failure count). Cheaper in the common case, where the tokens fill the last block's room and
   * one more opens a new block: everything else the general path checks is then known.
   */
  openDecodeBlock(owner: number, numTokens: number, hashes: ArrayLike<number>): number {
    const owners = this.owners;
    const bs = this.blockSizeTokens;
    const length = owners.length(owner);
    const room = length * bs - owners.tokens(owner);
    // Anything else goes the general way: an unknown or odd owner (the table is read by index),
    // a count that leaves the new block empty or spills past it, no free block (a failure to
    // count), 1-token blocks (the new block completes and may need registering).
    if (numTokens !== room + 1 || !(length > 0) || (owner | 0) !== owner || bs === 1 || this.used === this.totalBlocks) {
      return this.allocate(owner, numTokens, hashes, 0, false) ? this.deferrableTokens(owner, hashes) : -1;
    }
    if (room > 0) {
      owners.addTokens(owner, room);
      // A caller that deferred by deferrableTokens never completes a hashed block here; one
      // that did not gets the registration the general path makes.
      if (length - 1 < hashes.length) this.register(owner, length - 1, owners.last(owner), hashes);
    }
    const id = this.takeFreeBlock();
    this.used++;
    this.misses++;
    owners.push(owner, id);
    owners.addTokens(owner, 1);
    // The new block holds one token: its room, less the token that would complete it if hashed.
    return length < hashes.length ? bs - 2 : bs - 1;
  }

  /**
   * Tokens `owner` can still append to its partially filled last block without changing
   * anything but token counts: 0 when the block is full; one less than its room when filling
   * it registers a prefix hash (its index is below `hashes.length`), so that the token which
   * completes it is handed over in its own step. A caller that appends at most this many tokens
   * may therefore hand them over later, in one `allocate` together with the next token: block
   * usage, the free list and the prefix index evolve exactly as with one call per token. Until
   * then {@link tokensHeldBy} lags behind by the deferred tokens.
   */
  deferrableTokens(owner: number, hashes: ArrayLike<number>): number {
    const length = this.owners.length(owner);
    if (length === 0) return 0;
    const inBlock = this.lastBlockTokens(owner);
    if (inBlock <= 0 || inBlock >= this.blockSizeTokens) return 0;
    const room = this.blockSizeTokens - inBlock;
    return length - 1 < hashes.length ? room - 1 : room;
  }

  /**
   * Registers each full block `owner` holds that carries no hash yet under `hashes[k]` (k its
   * index in the owner's list, when `hashes` reaches that far), in list order: the blocks an
   * owner filled with fewer hashes than it had (a caller deferring blocks nobody else can hit)
   * get the index entries they would have had. Blocks already hashed are left as they are.
   */
  registerHeld(owner: number, hashes: ArrayLike<number>): void {
    const owners = this.owners;
    if (!owners.has(owner)) throw new KVCacheError(`owner ${owner} holds no blocks`);
    const full = Math.min(Math.floor(owners.tokens(owner) / this.blockSizeTokens), owners.length(owner), hashes.length);
    for (let k = 0; k < full; k++) if (!owners.hashedAt(owner, k)) this.register(owner, k, owners.blockAt(owner, k), hashes);
  }

  /** Frees everything `owner` holds, last block first. Cached hashes survive for reuse. */
  release(owner: number): void {
    const owners = this.owners;
    if (!owners.has(owner)) throw new KVCacheError(this.isRetired ? `owner ${owner} holds no blocks: the cache was retired` : `owner ${owner} holds no blocks (double release?)`);
    const rec = this.store.rec;
    const store = this.store;
    const length = owners.length(owner);
    // The hashed blocks' records are read first, all at once: the loads are independent, so their
    // cache misses overlap instead of queueing behind each release's ring append.
    if (length > 2) {
      let sink = 0;
      for (let i = 0; i < length; i++) if (owners.hashedAt(owner, i)) sink ^= rec[owners.blockAt(owner, i) * BLOCK_FIELDS + REF];
      this.sink ^= sink;
    }
    for (let i = length - 1; i >= 0; i--) {
      const id = owners.blockAt(owner, i);
      if (!owners.hashedAt(owner, i)) {
        // A block without a hash has this owner only, and no record to update.
        this.used--;
        store.pushBackBlank(id);
        continue;
      }
      const rc = --rec[id * BLOCK_FIELDS + REF];
      if (rc === 0) {
        this.used--;
        store.pushBack(id);
      } else if (rc < 0) {
        throw new KVCacheError(`block ${id} released more often than it was claimed`);
      }
    }
    owners.close(owner);
    this.layout++;
  }

  /** True when a block carrying `hash` is in the prefix index (held, or free and revivable). */
  holdsHash(hash: number): boolean {
    return this.hashToBlock.get(hash) !== NONE;
  }

  /** The id of block `i` (0-based) in `owner`'s list; for tiers walking what an owner holds. */
  ownerBlock(owner: number, i: number): number {
    return this.owners.blockAt(owner, i);
  }

  /** The prefix hash block `id` carries, or -1 (not yet full, or never hashed). */
  blockHash(id: number): number {
    return this.store.hashOf(id);
  }

  /**
   * Moves the free blocks among the first `n` of `hashes` (all cached) to the fresh end of the
   * free order and returns how many there were: blocks about to be claimed stay out of reach of
   * the {@link placeFreeBlock} calls that precede the claim, provided those take no more than
   * `freeBlocks` minus this count.
   */
  keepFree(hashes: ArrayLike<number>, n: number): number {
    let kept = 0;
    for (let i = 0; i < n; i++) {
      const id = this.hashToBlock.get(hashes[i]);
      if (id === NONE || this.store.rec[id * BLOCK_FIELDS + REF] !== 0) continue;
      this.store.revive(id);
      this.store.pushBack(id);
      kept++;
    }
    return kept;
  }

  /**
   * Puts content that another tier holds back on the GPU without giving it to anyone (a CPU
   * reload, BLIS's `reloadPrefixFromCPU`): takes the least recently freed block, evicting the
   * hash it carried, registers it under `hash` and returns it to the fresh end of the free
   * order with no owner, where the next allocation that names `hash` claims it as a prefix hit.
   * Returns false when no block is free. `hash` must not be in the index already.
   */
  placeFreeBlock(hash: number): boolean {
    if (this.isRetired) throw new KVCacheError('cannot place a block on a retired cache');
    if (this.used === this.totalBlocks) return false;
    const id = this.takeFreeBlock();
    this.store.setHash(id, hash);
    this.hashToBlock.set(hash, id);
    this.store.pushBack(id);
    return true;
  }

  /**
   * A full copy of the cache's observable state (free order, prefix index, the blocks of each
   * owner in `owners`). Costs O(blocks): for tests and diagnostics, not for a simulation loop.
   */
  snapshot(owners: readonly number[] = []): KVCacheSnapshot {
    return { ...blockLayout(this.store, this.hashToBlock, this.owners, owners), usedBlocks: this.used, stats: this.stats() };
  }

  /**
   * Checks INV-4, the free ring and the prefix index against the counters; throws on any
   * inconsistency. A retired cache holds no block: it checks that it counts none in use.
   */
  checkConsistency(): void {
    if (this.isRetired) {
      if (this.used !== 0) throw new KVCacheError(`retired cache counts ${this.used} blocks in use`);
      return;
    }
    checkCacheConsistency(this.store, this.hashToBlock, this.used, this.owners);
  }

  /**
   * Takes the least recently freed block (the caller knows one is free), evicting the hash it
   * still carried: the hash leaves the index even if a newer block re-registered it (BLIS does
   * the same). The block then carries no hash.
   */
  private takeFreeBlock(): number {
    const id = this.store.popFront();
    const orig = this.store.poppedHash;
    if (orig !== NONE) {
      this.hashToBlock.evict(id, orig);
      this.store.forgetHash(id);
    }
    return id;
  }

  /** Registers block `id`, the `k`-th of `owner` and just completed, under `hashes[k]` if there is one. */
  private register(owner: number, k: number, id: number, hashes: ArrayLike<number>): void {
    if (k < hashes.length) {
      this.layout++;
      const h = hashes[k];
      // A block completes once and carries no hash until then: it is this owner's alone.
      this.store.holdHashed(id, h);
      this.hashToBlock.set(h, id);
      this.owners.markHashed(owner, k);
    }
  }

  private growAttached(min: number): void {
    let c = this.attached.length;
    while (c < min) c *= 2;
    this.attached = new Int32Array(c);
  }
}
