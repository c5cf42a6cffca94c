import type { BlockStore } from './block-store.js';
import { mixOf } from './hash-mix.js';

const EMPTY = -1;
/** A slot's block is stored plus one, so that a fresh (zeroed) table is all empty slots. */
const FREE = 0;
/** Filter bits per table slot, log2 (8: a byte per slot, an eighth of the table's size). */
const FILTER_BITS_PER_SLOT_LOG2 = 3;
/** Spreads a mix's bits for the filter, whose bit must not follow from the slot the mix starts at. */
const FILTER_SPREAD = 0x9e3779b1;

/** Hears of changes to the set of hashes an index holds (not of a hash moving between blocks). */
export interface IndexWatcher {
  added(hash: number): void;
  removed(hash: number): void;
}

/**
 * The prefix cache's hash → block index.
 *
 * Its truth lives in the {@link BlockStore}: a block is *registered* (a bit in its record) while
 * the index maps the hash it carries to it, and a block carries at most one hash. The table is
 * how a hash finds its block: open addressing (linear probing) of block ids, each slot paired
 * with the 32-bit mix of the hash it was placed under. A slot is live while its block is
 * registered and still carries a hash of that mix; it is confirmed by reading the block's
 * record, the one record read, of the block the cache touches next anyway.
 *
 * Removing a hash only clears its block's bit: the slot stays behind, stale, and lookups probe
 * past it. Evicting a hash when its block is reused therefore costs nothing in the table
 * (that random access into a large table was the cache's single most expensive step). Stale
 * slots are dropped when the table is rebuilt from the registered blocks, which happens when
 * slots in use (live or stale) pass 5/8 of the table; the table doubles when live ones pass 3/8,
 * up to the power of two at least twice the blocks.
 *
 * A lookup of a hash the index never held (most lookups: every instance a router scores that
 * does not hold the request's first block) is answered by a bit filter of the mixes placed
 * since the last rebuild, a byte per slot, without probing the table: the table is large and
 * its slots are read at random, the filter an eighth of its size. The filter only gains bits
 * between rebuilds, so it never hides a hash the table holds; a rebuild sets it from the live
 * hashes again.
 */
export class HashIndex {
  private readonly store: BlockStore;
  /** Per slot: block id + 1 (0: free), then the mix of the hash it was placed under. */
  private slots: Int32Array;
  private mask: number;
  /** Registered blocks: the hashes the index holds. */
  private count = 0;
  /** Slots not free, live or stale. */
  private occupied = 0;
  /** Told of every hash the index gains or loses, only while a delayed view follows the index. */
  watcher: IndexWatcher | undefined;
  /** One bit per filter position: set for every mix placed in the table since the last rebuild. */
  private filter: Int32Array;
  /** 32 - log2(filter bits): a spread mix shifted by it is the mix's filter position. */
  private filterShift: number;

  constructor(store: BlockStore, capacity = 16) {
    this.store = store;
    // Small at first, doubling as live hashes pass 3/8: a short run (a search's
    // evaluation builds a cache per instance per scenario) pays for the hashes it registers,
    // not for the cache's size; a long one pays a dozen rebuilds, a few ms in all.
    let size = 16;
    while (size < capacity) size *= 2;
    this.slots = new Int32Array(size * 2);
    this.mask = size - 1;
    this.filter = new Int32Array((size << FILTER_BITS_PER_SLOT_LOG2) >>> 5);
    this.filterShift = 32 - (31 - Math.clz32(size << FILTER_BITS_PER_SLOT_LOG2));
  }

  /** True when `mix` may be in the table: false for a mix never placed since the last rebuild. */
  private mayHold(mix: number): boolean {
    const f = Math.imul(mix, FILTER_SPREAD) >>> this.filterShift;
    return (this.filter[f >>> 5] & (1 << (f & 31))) !== 0;
  }

  private addToFilter(filter: Int32Array, shift: number, mix: number): void {
    const f = Math.imul(mix, FILTER_SPREAD) >>> shift;
    filter[f >>> 5] |= 1 << (f & 31);
  }

  /** Calls `fn` for every (hash, block) entry, by block id. */
  forEach(fn: (hash: number, block: number) => void): void {
    const store = this.store;
    for (let b = 0; b < store.recordedBlocks; b++) if (store.isRegistered(b)) fn(store.hashOf(b), b);
  }

  get size(): number {
    return this.count;
  }

  /**
   * Reads the slot where a lookup of `hash` starts, and returns it to be folded into a sink: a
   * load issued ahead of its use, so that its cache miss overlaps other work.
   */
  preload(hash: number): number {
    return this.slots[2 * (mixOf(hash) & this.mask)];
  }

  /** Block registered under `hash`, or -1. */
  get(hash: number): number {
    const mask = this.mask;
    const mix = mixOf(hash);
    if (!this.mayHold(mix)) return EMPTY;
    const store = this.store;
    let i = mix & mask;
    for (;;) {
      const v = this.slots[2 * i] - 1;
      if (v === EMPTY) return EMPTY;
      if (this.slots[2 * i + 1] === mix && store.isRegistered(v) && store.hashOf(v) === hash) return v;
      i = (i + 1) & mask;
    }
  }

  /** Maps `hash` to `block`, which must already carry it, replacing any earlier mapping. */
  set(hash: number, block: number): void {
    const store = this.store;
    const mask = this.mask;
    const mix = mixOf(hash);
    let i = mix & mask;
    for (;;) {
      const v = this.slots[2 * i] - 1;
      if (v === EMPTY) break;
      if (this.slots[2 * i + 1] === mix && store.isRegistered(v) && store.hashOf(v) === hash) {
        // Remapped: the hash stays in the index, now with this block.
        store.setRegistered(v, false);
        store.setRegistered(block, true);
        this.slots[2 * i] = block + 1;
        return;
      }
      i = (i + 1) & mask;
    }
    this.slots[2 * i] = block + 1;
    this.slots[2 * i + 1] = mix;
    this.addToFilter(this.filter, this.filterShift, mix);
    store.setRegistered(block, true);
    this.count++;
    if (++this.occupied * 8 > (mask + 1) * 5) this.rebuild();
    this.watcher?.added(hash);
  }

  /**
   * Drops `hash` as block `block` is reused: a block still registered holds its hash's entry,
   * which goes at the cost of a bit; otherwise the hash may still map to another block that
   * carries it too (a remap), and leaves the index all the same (BLIS does the same).
   */
  evict(block: number, hash: number): void {
    const store = this.store;
    if (store.isRegistered(block)) {
      store.setRegistered(block, false);
      this.count--;
      this.watcher?.removed(hash);
    } else {
      this.delete(hash);
    }
  }

  /** Removes `hash` when it maps to `block` (or to anything, when `block` is -1). */
  delete(hash: number, block = EMPTY): void {
    const v = this.get(hash);
    if (v === EMPTY || (block !== EMPTY && v !== block)) return;
    this.store.setRegistered(v, false);
    this.count--;
    this.watcher?.removed(hash);
  }

  /**
   * Lays the registered blocks out in a fresh table, without the stale slots; doubled while live
   * ones would fill more than 3/8 of it, so that a quarter of it is left for insertions before
   * the next rebuild (an eighth at the size cap).
   */
  private rebuild(): void {
    let size = this.mask + 1;
    // At most twice the blocks (a power of two), so live hashes never pass half of it: a cache
    // whose every block carries a hash rebuilds more often rather than holding more memory.
    while (this.count * 8 > size * 3 && size < 2 * this.store.total) size *= 2;
    const slots = new Int32Array(size * 2);
    const mask = size - 1;
    const filter = size === this.mask + 1 ? this.filter.fill(0) : new Int32Array((size << FILTER_BITS_PER_SLOT_LOG2) >>> 5);
    const shift = 32 - (31 - Math.clz32(size << FILTER_BITS_PER_SLOT_LOG2));
    const store = this.store;
    for (let b = 0; b < store.recordedBlocks; b++) {
      if (!store.isRegistered(b)) continue;
      const mix = mixOf(store.hashOf(b));
      let i = mix & mask;
      while (slots[2 * i] !== FREE) i = (i + 1) & mask;
      slots[2 * i] = b + 1;
      slots[2 * i + 1] = mix;
      this.addToFilter(filter, shift, mix);
    }
    this.slots = slots;
    this.mask = mask;
    this.filter = filter;
    this.filterShift = shift;
    this.occupied = this.count;
  }
}
