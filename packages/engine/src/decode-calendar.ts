import { DecodeEventHeap } from './decode-event-heap.js';
import { InvariantViolation } from './invariant-error.js';

/** Numbers per event in a bucket: seq, position hint, removal mark. */
export const EVENT_FIELDS = 3;
const FIELDS = EVENT_FIELDS;

/**
 * The bulk-decoded requests' next events by instance step: a calendar, a ring of one bucket per
 * step, for events less than {@link horizon} steps ahead of the step taken last.
 *
 * Bulk decode schedules each request's next event (it opens a KV block, or completes) at most a
 * block's worth of steps ahead: its KV room after a block opens is below the block size. So
 * with a ring longer than a block every push is O(1) and every step's take costs its own events
 * (sorted, a handful), where a heap paid a logarithm per push and per pop. An event further
 * ahead goes to a heap and joins its step's bucket when that step is taken, which keeps the
 * structure correct for any input.
 *
 * Each event carries its request's admission seq (events of one step are taken in seq order:
 * running order decides which cached blocks KV allocations evict) and two numbers the caller
 * uses to find the request's position without a search (see BulkDecode.begin). The buckets
 * are one array, events interleaved, so a step's events share cache lines.
 */
export class DecodeCalendar {
  private readonly mask: number;
  /** Events per bucket the array has room for; all buckets grow together (rarely: a batch's worth at most). */
  private cap = 8;
  private slots: Float64Array;
  private readonly counts: Int32Array;
  /** The step taken last (or 0): pending events are at it or after. */
  private now = 0;
  private size = 0;
  /** Events too far ahead for the ring (none that bulk decode makes; see the class comment). */
  private readonly far = new DecodeEventHeap();
  /**
   * Where the last {@link takeDue}'s events start in {@link events}: event k's seq, position
   * hint and removal mark at `dueAt + 3k`, `+ 1`, `+ 2`. Valid until the next push or take.
   */
  dueAt = 0;

  /** A calendar whose ring holds events up to at least `span` - 1 steps ahead (rounded up to a power of two). */
  constructor(span: number) {
    let horizon = 2;
    while (horizon < span) horizon *= 2;
    this.mask = horizon - 1;
    this.counts = new Int32Array(horizon);
    this.slots = new Float64Array(horizon * this.cap * FIELDS);
  }

  /** Steps ahead of the step taken last that the ring holds. */
  get horizon(): number {
    return this.mask + 1;
  }

  /** Events pending. */
  get length(): number {
    return this.size;
  }

  /** The buckets' storage, read at {@link dueAt} after a {@link takeDue}. */
  get events(): Float64Array {
    return this.slots;
  }

  /** Drops every event; the step taken last stays (steps only move forward). */
  clear(): void {
    if (this.size === 0) return;
    this.counts.fill(0);
    this.far.clear();
    this.size = 0;
  }

  /**
   * Queues the event of request `seq` at `step` (not before the step taken last), with its
   * position hint `pos` (-1: none) and removal mark `mark`.
   */
  push(step: number, seq: number, pos: number, mark: number): void {
    const ahead = step - this.now;
    if (ahead < 0) throw new InvariantViolation('INV-3', `bulk decode: an event at step ${step} scheduled after step ${this.now} was taken`);
    this.size++;
    if (ahead > this.mask) {
      // Without hints: its position is found by a search when it is taken.
      this.far.push(step, seq);
      return;
    }
    const b = step & this.mask;
    const k = this.counts[b];
    if (k === this.cap) this.grow();
    const at = (b * this.cap + k) * FIELDS;
    const slots = this.slots;
    slots[at] = seq;
    slots[at + 1] = pos;
    slots[at + 2] = mark;
    this.counts[b] = k + 1;
  }

  /**
   * Takes the events of `step` (none may be pending before it), ascending by seq, to be read
   * at {@link dueAt}; returns how many. An event that waited in the far heap has hint -1.
   */
  takeDue(step: number): number {
    const ahead = step - this.now;
    if (ahead < 0) throw new InvariantViolation('INV-3', `bulk decode: step ${step} taken after step ${this.now}`);
    // The caller takes each step in turn, or clears: nothing may be left behind in between.
    if (ahead > 0 && this.size > 0) this.checkSkipped(step, ahead);
    this.now = step;
    if (this.size === 0) return 0;
    const b = step & this.mask;
    let n = this.counts[b];
    const far = this.far;
    if (far.size > 0 && far.peekStep() === step) n = this.takeFar(b, n, step);
    this.counts[b] = 0;
    this.size -= n;
    const base = b * this.cap * FIELDS;
    this.dueAt = base;
    // Insertion sort by seq: a bucket fills mostly in running order and holds a handful.
    const slots = this.slots;
    const end = base + n * FIELDS;
    for (let i = base + FIELDS; i < end; i += FIELDS) {
      const s = slots[i];
      if (slots[i - FIELDS] < s) continue;
      const p = slots[i + 1];
      const m = slots[i + 2];
      let j = i;
      while (j > base && slots[j - FIELDS] > s) {
        slots[j] = slots[j - FIELDS];
        slots[j + 1] = slots[j - FIELDS + 1];
        slots[j + 2] = slots[j - FIELDS + 2];
        j -= FIELDS;
      }
      slots[j] = s;
      slots[j + 1] = p;
      slots[j + 2] = m;
    }
    return n;
  }

  /**
   * How many events are pending at `step` (not before the step taken last), without taking
   * them; Infinity when some wait in the far heap (the caller then takes the step as usual).
   */
  pendingAt(step: number): number {
    const far = this.far;
    if (far.size > 0 && far.peekStep() === step) return Number.POSITIVE_INFINITY;
    // Every event in the ring is within `mask` steps of the step taken last, so the bucket of
    // `step` holds events of `step` only.
    return this.counts[step & this.mask];
  }

  private checkSkipped(step: number, ahead: number): void {
    const far = this.far;
    if (far.size > 0 && far.peekStep() < step) throw new InvariantViolation('INV-3', `bulk decode: step ${step} taken with an event of step ${far.peekStep()} pending`);
    const span = Math.min(ahead, this.mask + 1);
    for (let d = 0; d < span; d++) {
      const s = this.now + d;
      if (this.counts[s & this.mask] !== 0) throw new InvariantViolation('INV-3', `bulk decode: step ${step} taken with events of step ${s} pending`);
    }
  }

  /** Appends the far heap's events of `step` to bucket `b`, which holds `n`; returns the new count. */
  private takeFar(b: number, n: number, step: number): number {
    const far = this.far;
    while (far.size > 0 && far.peekStep() === step) {
      if (n === this.cap) this.grow();
      const at = (b * this.cap + n) * FIELDS;
      this.slots[at] = far.peekSeq();
      this.slots[at + 1] = -1;
      this.slots[at + 2] = -1;
      far.pop();
      n++;
    }
    return n;
  }

  private grow(): void {
    const cap = this.cap * 2;
    const buckets = this.mask + 1;
    const next = new Float64Array(buckets * cap * FIELDS);
    for (let b = 0; b < buckets; b++) next.set(this.slots.subarray(b * this.cap * FIELDS, (b + 1) * this.cap * FIELDS), b * cap * FIELDS);
    this.slots = next;
    this.cap = cap;
  }
}
