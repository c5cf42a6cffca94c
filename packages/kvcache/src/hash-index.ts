const EMPTY = -1;

/**
 * The prefix cache's hash → block index: an open-addressing table (linear probing,
 * backward-shift deletion) over typed arrays, keyed by the full 52-bit block hash.
 *
 * A cache holds at most one registered hash per block, so the table never needs more than
 * `capacity` entries and is sized once, at twice that, rounded to a power of two. A `Map`
 * with hundreds of thousands of heap-number keys was the cache's single largest cost; this
 * touches one or two cache lines per operation and allocates nothing.
 */
export class HashIndex {
  private keys: Float64Array;
  /** Block id per slot, or EMPTY. */
  private vals: Int32Array;
  private mask: number;
  private count = 0;

  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.keys = new Float64Array(size);
    this.vals = new Int32Array(size).fill(EMPTY);
    this.mask = size - 1;
  }

  /** Calls `fn` for every (hash, block) entry, in table order. */
  forEach(fn: (hash: number, block: number) => void): void {
    for (let i = 0; i <= this.mask; i++) if (this.vals[i] !== EMPTY) fn(this.keys[i], this.vals[i]);
  }

  get size(): number {
    return this.count;
  }

  /** Block registered under `hash`, or -1. */
  get(hash: number): number {
    const mask = this.mask;
    let i = slotOf(hash) & mask;
    for (;;) {
      const v = this.vals[i];
      if (v === EMPTY) return EMPTY;
      if (this.keys[i] === hash) return v;
      i = (i + 1) & mask;
    }
  }

  /** Maps `hash` to `block`, replacing any earlier mapping. */
  set(hash: number, block: number): void {
    const mask = this.mask;
    let i = slotOf(hash) & mask;
    for (;;) {
      const v = this.vals[i];
      if (v === EMPTY) {
        this.keys[i] = hash;
        this.vals[i] = block;
        // Linear probing needs empty slots to terminate; the cache never holds more entries
        // than blocks, but a full table must degrade (grow), never loop.
        if (++this.count * 2 > this.mask + 1) this.grow();
        return;
      }
      if (this.keys[i] === hash) {
        this.vals[i] = block;
        return;
      }
      i = (i + 1) & mask;
    }
  }

  private grow(): void {
    const keys = this.keys;
    const vals = this.vals;
    const size = (this.mask + 1) * 2;
    this.keys = new Float64Array(size);
    this.vals = new Int32Array(size).fill(EMPTY);
    this.mask = size - 1;
    this.count = 0;
    for (let i = 0; i < vals.length; i++) if (vals[i] !== EMPTY) this.set(keys[i], vals[i]);
  }

  /** Removes `hash` when it maps to `block` (or to anything, when `block` is -1). */
  delete(hash: number, block = EMPTY): void {
    const mask = this.mask;
    let i = slotOf(hash) & mask;
    for (;;) {
      const v = this.vals[i];
      if (v === EMPTY) return;
      if (this.keys[i] === hash) {
        if (block !== EMPTY && v !== block) return;
        break;
      }
      i = (i + 1) & mask;
    }
    // Backward-shift deletion: pull later members of the probe run into the hole so that
    // lookups never need tombstones.
    this.count--;
    let hole = i;
    let j = (i + 1) & mask;
    while (this.vals[j] !== EMPTY) {
      const home = slotOf(this.keys[j]) & mask;
      // Move j into the hole unless its home lies cyclically in (hole, j].
      if (((j - home) & mask) >= ((j - hole) & mask)) {
        this.keys[hole] = this.keys[j];
        this.vals[hole] = this.vals[j];
        hole = j;
      }
      j = (j + 1) & mask;
    }
    this.vals[hole] = EMPTY;
  }
}

/** Low 32 bits of a non-negative integer hash below 2^53, mixed so that probing starts spread. */
function slotOf(hash: number): number {
  let h = (hash >>> 0) ^ ((hash / 4294967296) >>> 0);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}
