import type { BlockStore } from './block-store.js';
import { mixOf } from './hash-mix.js';

const EMPTY = -1;
/** A slot's block is stored plus one, so that a fresh (zeroed) table is all empty slots. */
const FREE = 0;

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

  constructor(store: BlockStore, capacity = 16) {
    this.store = store;
    // Small at first, doubling as live hashes pass 3/8: a short run (a search's
    // evaluation builds a cache per instance per scenario) pays for the hashes it registers,
    // not for the cache's size; a long one pays a dozen rebuilds, a few ms in all.
    let size = 16;
    while (size < capacity) size *= 2;
    this.slots = new Int32Array(size * 2);
    this.mask = size - 1;
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
    const store = this.store;
    for (let b = 0; b < store.recordedBlocks; b++) {
      if (!store.isRegistered(b)) continue;
      const mix = mixOf(store.hashOf(b));
      let i = mix & mask;
      while (slots[2 * i] !== FREE) i = (i + 1) & mask;
      slots[2 * i] = b + 1;
      slots[2 * i + 1] = mix;
    }
    this.slots = slots;
    this.mask = mask;
    this.occupied = this.count;
  }
}
