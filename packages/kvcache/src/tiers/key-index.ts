/**
 * An open-addressing map from block keys (prefix hashes: non-negative integers below 2^53) to
 * non-negative integer values, for the offload tiers. Linear probing, backward-shift deletion
 * (no tombstones), doubling when the load passes 1/2. Each slot is a (key, value) pair of
 * doubles side by side, so a lookup that hits touches one cache line, and allocates nothing,
 * unlike a `Map` keyed by doubles.
 */
export class KeyIndex {
  /** Slot i: key at 2i (EMPTY when free), value at 2i + 1. */
  private slots: Float64Array;
  private mask: number;
  private count = 0;

  /** `expected`: how many entries to size for before the first doubling. */
  constructor(expected = 8) {
    let size = 16;
    while (size < expected * 2) size *= 2;
    this.slots = new Float64Array(2 * size).fill(EMPTY);
    this.mask = size - 1;
  }

  /** Entries held. */
  get size(): number {
    return this.count;
  }

  /** The value stored under `key`, or -1. */
  get(key: number): number {
    const slots = this.slots;
    const mask = this.mask;
    let i = mix(key) & mask;
    for (;;) {
      const k = slots[2 * i];
      if (k === key) return slots[2 * i + 1];
      if (k === EMPTY) return -1;
      i = (i + 1) & mask;
    }
  }

  has(key: number): boolean {
    return this.get(key) !== -1;
  }

  /** Stores `value` (>= 0) under `key`, replacing any earlier value. */
  set(key: number, value: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let i = mix(key) & mask;
    for (;;) {
      const k = slots[2 * i];
      if (k === key) {
        slots[2 * i + 1] = value;
        return;
      }
      if (k === EMPTY) {
        slots[2 * i] = key;
        slots[2 * i + 1] = value;
        if (++this.count * 2 > mask + 1) this.grow();
        return;
      }
      i = (i + 1) & mask;
    }
  }

  /** Removes `key`; true when it was present. */
  delete(key: number): boolean {
    const slots = this.slots;
    const mask = this.mask;
    let i = mix(key) & mask;
    for (;;) {
      const k = slots[2 * i];
      if (k === key) break;
      if (k === EMPTY) return false;
      i = (i + 1) & mask;
    }
    this.count--;
    // Pull later members of the probe run back into the hole, so lookups need no tombstones.
    let hole = i;
    let j = (i + 1) & mask;
    for (;;) {
      const k = slots[2 * j];
      if (k === EMPTY) break;
      const home = mix(k) & mask;
      if (((j - home) & mask) >= ((j - hole) & mask)) {
        slots[2 * hole] = k;
        slots[2 * hole + 1] = slots[2 * j + 1];
        hole = j;
      }
      j = (j + 1) & mask;
    }
    slots[2 * hole] = EMPTY;
    return true;
  }

  /** Calls `fn` for every entry, in table order (tests and consistency checks only). */
  forEach(fn: (key: number, value: number) => void): void {
    for (let i = 0; i <= this.mask; i++) if (this.slots[2 * i] !== EMPTY) fn(this.slots[2 * i], this.slots[2 * i + 1]);
  }

  private grow(): void {
    const old = this.slots;
    const size = (this.mask + 1) * 2;
    this.slots = new Float64Array(2 * size).fill(EMPTY);
    this.mask = size - 1;
    this.count = 0;
    for (let i = 0; i < old.length; i += 2) if (old[i] !== EMPTY) this.set(old[i], old[i + 1]);
  }
}

const EMPTY = -1;

/** A 32-bit mix of both halves of a key below 2^53. */
function mix(key: number): number {
  let h = (key >>> 0) ^ Math.imul((key / 4294967296) >>> 0, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return h ^ (h >>> 16);
}
