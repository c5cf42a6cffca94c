import { EpochBitFilter } from './epoch-bit-filter.js';
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
 * may stop at the first slot of an earlier epoch.
 *
 * Changes are only logged as they come, and marked in a small filter; they are recorded at the
 * first lookup of a hash the filter says may have changed. A lookup of an unchanged hash (most
 * of them: a router reads the prefixes of new prompts, or long-lived shared ones) is answered
 * by the filter alone, and an epoch in which no such lookup comes costs an append and a bit per
 * change. So a delayed view of a set costs about what is read of it, never a copy of the set
 * nor a replay of its changes into one.
 */
export class PriorStateTable {
  /** Per slot: the hash, then its tag `2 * epoch + (present before ? 1 : 0)`. */
  private slots: Float64Array;
  private mask: number;
  /** `2 * epoch`: a slot whose tag is below it is from an earlier epoch, so empty. */
  private base = 2;
  /** Entries of the current epoch. */
  private count = 0;
  /** Changes not yet recorded, in order: `hash` for an insertion, `-hash - 1` for a deletion. */
  private log: Float64Array;
  private logLength = 0;
  /** Every hash changed this epoch, logged or recorded, may be in it; no other is, mostly. */
  private readonly filter = new EpochBitFilter();

  constructor(minSlots = MIN_SLOTS) {
    let size = 1;
    while (size < minSlots) size *= 2;
    this.slots = new Float64Array(size * 2);
    this.mask = size - 1;
    this.log = new Float64Array(size);
  }

  /** Hashes changed since the epoch began. */
  get size(): number {
    if (this.logLength > 0) this.record();
    return this.count;
  }

  /** True when nothing changed since the epoch began. */
  get unchanged(): boolean {
    return this.logLength === 0 && this.count === 0;
  }

  /** Starts a new epoch: the set as it is now is what later lookups answer for unrecorded hashes. */
  advance(): void {
    this.logLength = 0;
    this.filter.clear();
    if (this.count === 0) return;
    this.base += 2;
    this.count = 0;
  }

  /** `hash` joined the set. */
  added(hash: number): void {
    if (this.logLength === this.log.length) this.growLog();
    this.log[this.logLength++] = hash;
    this.filter.add(mixOf(hash));
  }

  /** `hash` left the set. */
  removed(hash: number): void {
    if (this.logLength === this.log.length) this.growLog();
    this.log[this.logLength++] = -hash - 1;
    this.filter.add(mixOf(hash));
  }

  /** 1 when `hash` was in the set when the epoch began, 0 when not, -1 when it has not changed since. */
  lookup(hash: number): number {
    const mix = mixOf(hash);
    if (!this.filter.mayHold(mix)) return -1;
    if (this.logLength > 0) this.record();
    const slots = this.slots;
    const mask = this.mask;
    const base = this.base;
    let i = mix & mask;
    for (;;) {
      const tag = slots[2 * i + 1];
      if (tag < base) return -1;
      if (slots[2 * i] === hash) return tag - base;
      i = (i + 1) & mask;
    }
  }

  /** Records the logged changes. */
  private record(): void {
    const log = this.log;
    for (let k = 0; k < this.logLength; k++) {
      const v = log[k];
      if (v >= 0) this.note(v, 0);
      else this.note(-v - 1, 1);
    }
    this.logLength = 0;
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

  private growLog(): void {
    const next = new Float64Array(this.log.length * 2);
    next.set(this.log);
    this.log = next;
  }
}
