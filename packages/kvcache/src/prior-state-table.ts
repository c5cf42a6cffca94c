import { mixOf } from './hash-mix.js';

/** Smallest table; it doubles when an epoch's entries pass half of it. */
const MIN_SLOTS = 64;

/**
 * What a set of hashes held at the start of the current epoch, for the hashes that changed
 * since: each hash's first change in an epoch records the membership it had before it (an
 * insertion says it was absent, a deletion that it was present); later changes in the same
 * epoch leave that record alone. A hash with no record is unchanged since the epoch began.
 *
 * A new epoch forgets every record at once, without clearing: each slot carries the epoch it
 * was written in, and a slot from an earlier epoch counts as empty. Within one epoch slots only
 * go from empty to taken, so linear probing needs neither tombstones nor deletion, and a lookup
 * may stop at the first slot of an earlier epoch. This keeps a delayed view of a set at the cost
 * of its changes (one probe of a table sized by one epoch's changes, not by the set), with
 * nothing to replay when the view catches up.
 */
export class PriorStateTable {
  /** Per slot: the hash, then its tag `2 * epoch + (present before ? 1 : 0)`. */
  private slots: Float64Array;
  private mask: number;
  /** `2 * epoch`: a slot whose tag is below it is from an earlier epoch, so empty. */
  private base = 2;
  /** Entries of the current epoch. */
  private count = 0;

  constructor(minSlots = MIN_SLOTS) {
    let size = 1;
    while (size < minSlots) size *= 2;
    this.slots = new Float64Array(size * 2);
    this.mask = size - 1;
  }

  /** Hashes with a record in the current epoch. */
  get size(): number {
    return this.count;
  }

  /** Starts a new epoch: the set as it is now is what later lookups answer for unrecorded hashes. */
  advance(): void {
    if (this.count === 0) return;
    this.base += 2;
    this.count = 0;
  }

  /** `hash` joined the set. */
  added(hash: number): void {
    this.note(hash, 0);
  }

  /** `hash` left the set. */
  removed(hash: number): void {
    this.note(hash, 1);
  }

  /** 1 when `hash` was in the set when the epoch began, 0 when not, -1 when it has not changed since. */
  lookup(hash: number): number {
    const slots = this.slots;
    const mask = this.mask;
    const base = this.base;
    let i = mixOf(hash) & mask;
    for (;;) {
      const tag = slots[2 * i + 1];
      if (tag < base) return -1;
      if (slots[2 * i] === hash) return tag - base;
      i = (i + 1) & mask;
    }
  }

  private note(hash: number, before: number): void {
    const slots = this.slots;
    const mask = this.mask;
    const base = this.base;
    let i = mixOf(hash) & mask;
    for (;;) {
      if (slots[2 * i + 1] < base) break;
      if (slots[2 * i] === hash) return;
      i = (i + 1) & mask;
    }
    slots[2 * i] = hash;
    slots[2 * i + 1] = base + before;
    if (++this.count * 2 > mask + 1) this.grow();
  }

  /** Doubles the table, keeping the current epoch's entries only. */
  private grow(): void {
    const old = this.slots;
    const base = this.base;
    const size = (this.mask + 1) * 2;
    const slots = new Float64Array(size * 2);
    const mask = size - 1;
    for (let j = 0; j < old.length; j += 2) {
      if (old[j + 1] < base) continue;
      let i = mixOf(old[j]) & mask;
      while (slots[2 * i + 1] >= base) i = (i + 1) & mask;
      slots[2 * i] = old[j];
      slots[2 * i + 1] = old[j + 1];
    }
    this.slots = slots;
    this.mask = mask;
  }
}
