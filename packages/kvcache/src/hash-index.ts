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
 * The prefix cache's hash → block index: an open-addressing table (linear probing,
 * backward-shift deletion) of block ids, each slot paired with the 32-bit mix of its hash.
 * The full key is the hash the block carries in the {@link BlockStore}, read only to confirm a
 * slot whose mix matches: probing and deletion's shifting stay within the table's own
 * (adjacent) memory, and the one record read is of the block the cache touches next anyway.
 *
 * Slots hold block id + 1, so that a fresh table (zeros) is empty without a fill.
 *
 * The cache keeps every entry's block carrying the entry's hash (it clears a block's hash only
 * after deleting the entry), and holds at most one registered hash per block.
 */
export class HashIndex {
  private readonly store: BlockStore;
  /** Per slot: block id + 1 (0: empty), then the mix of its hash. */
  private slots: Int32Array;
  private mask: number;
  private count = 0;
  /** Told of every hash the index gains or loses, only while a delayed view follows the index. */
  watcher: IndexWatcher | undefined;

  constructor(store: BlockStore, capacity = 16) {
    this.store = store;
    // Small at first, doubling when the load passes 1/2: a short run (a search's evaluation
    // builds a cache per instance per scenario) pays for the hashes it registers, not for the
    // cache's size; a long one pays a dozen rehashes, a few ms in all.
    let size = 16;
    while (size < capacity) size *= 2;
    this.slots = new Int32Array(size * 2);
    this.mask = size - 1;
  }

  /** Calls `fn` for every (hash, block) entry, in table order. */
  forEach(fn: (hash: number, block: number) => void): void {
    for (let i = 0; i <= this.mask; i++) {
      const v = this.slots[2 * i] - 1;
      if (v !== EMPTY) fn(this.store.hashOf(v), v);
    }
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
    let i = mix & mask;
    for (;;) {
      const v = this.slots[2 * i] - 1;
      if (v === EMPTY || (this.slots[2 * i + 1] === mix && this.store.hashOf(v) === hash)) return v;
      i = (i + 1) & mask;
    }
  }

  /** Maps `hash` to `block`, which must already carry it, replacing any earlier mapping. */
  set(hash: number, block: number): void {
    if (this.place(hash, block)) this.watcher?.added(hash);
  }

  /** Inserts or remaps `hash`; true when the hash is new to the index. */
  private place(hash: number, block: number): boolean {
    const mask = this.mask;
    const mix = mixOf(hash);
    let i = mix & mask;
    for (;;) {
      const v = this.slots[2 * i] - 1;
      if (v === EMPTY) {
        this.slots[2 * i] = block + 1;
        this.slots[2 * i + 1] = mix;
        if (++this.count * 2 > this.mask + 1) this.grow();
        return true;
      }
      if (this.slots[2 * i + 1] === mix && this.store.hashOf(v) === hash) {
        this.slots[2 * i] = block + 1;
        return false;
      }
      i = (i + 1) & mask;
    }
  }

  private grow(): void {
    const old = this.slots;
    const size = (this.mask + 1) * 2;
    this.slots = new Int32Array(size * 2);
    this.mask = size - 1;
    this.count = 0;
    for (let i = 0; i < old.length; i += 2) if (old[i] !== FREE) this.place(this.store.hashOf(old[i] - 1), old[i] - 1);
  }

  /** Removes `hash` when it maps to `block` (or to anything, when `block` is -1). */
  delete(hash: number, block = EMPTY): void {
    const mask = this.mask;
    const slots = this.slots;
    const mix = mixOf(hash);
    let i = mix & mask;
    for (;;) {
      const v = slots[2 * i] - 1;
      if (v === EMPTY) return;
      if (slots[2 * i + 1] === mix && this.store.hashOf(v) === hash) {
        if (block !== EMPTY && v !== block) return;
        break;
      }
      i = (i + 1) & mask;
    }
    this.watcher?.removed(hash);
    // Backward-shift deletion: pull later members of the probe run into the hole so that
    // lookups never need tombstones.
    this.count--;
    let hole = i;
    let j = (i + 1) & mask;
    for (;;) {
      const v = slots[2 * j];
      if (v === FREE) break;
      const home = slots[2 * j + 1] & mask;
      // Move j into the hole unless its home lies cyclically in (hole, j].
      if (((j - home) & mask) >= ((j - hole) & mask)) {
        slots[2 * hole] = v;
        slots[2 * hole + 1] = slots[2 * j + 1];
        hole = j;
      }
      j = (j + 1) & mask;
    }
    slots[2 * hole] = FREE;
  }
}
