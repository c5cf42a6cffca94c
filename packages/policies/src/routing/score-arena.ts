/** Doubles per slab: 32 KiB, a few dozen decisions' worth at 16 instances and 3 scorers. */
const SLAB_DOUBLES = 4096;

/**
 * Hands out zeroed Float64Arrays that are never handed out again, carved as views from shared
 * slabs. A Float64Array of more than 8 elements gets its own off-heap backing store, which
 * costs about 0.6 µs in V8 (Node 20): the four a weighted decision needs at 16 instances cost
 * as much as the whole rest of the decision. A view on an existing buffer is an ordinary small
 * heap object, about 40 ns.
 *
 * A kept view keeps its whole slab alive, and its `.buffer` is the slab: consumers that keep
 * scores should copy them (the trace recorder does).
 */
export class ScoreArena {
  private slab = new ArrayBuffer(0);
  private used = 0;
  private capacity = 0;

  /** A fresh zeroed array of length `n`. */
  take(n: number): Float64Array {
    if (this.used + n > this.capacity) {
      this.capacity = Math.max(SLAB_DOUBLES, n);
      this.slab = new ArrayBuffer(this.capacity * 8);
      this.used = 0;
    }
    const out = new Float64Array(this.slab, this.used * 8, n);
    this.used += n;
    return out;
  }
}
