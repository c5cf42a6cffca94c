import { DecodeEventHeap } from './decode-event-heap.js';
import { InvariantViolation } from './invariant-error.js';

/**
 * The bulk-decoded requests' next events by instance step: a calendar, a ring of one bucket per
 * step, for events less than `horizon` steps ahead of the earliest step still pending.
 *
 * Bulk decode schedules each request's next event (it opens a KV block, or completes) at most a
 * block's worth of steps ahead: its KV room after a block opens is below the block size. So
 * with a ring longer than a block every push and every step's take is O(1) plus the step's own
 * events, where a heap paid a logarithm per push and per pop. An event further ahead than the
 * ring goes to a heap, which keeps the structure correct for any input.
 *
 * Each event carries its request's admission seq (the order events of one step are taken in:
 * running order decides which cached blocks KV allocations evict) and two hints the caller
 * uses to find the request's position without a search (see {@link takeDue}).
 */
export class DecodeCalendar {
  private readonly mask: number;
  /** Per bucket: its events' seqs and hints, and their number. */
  private seqs: Float64Array[];
  private posHint: Int32Array[];
  private markHint: Float64Array[];
  private readonly counts: Int32Array;
  /** The earliest step that may hold an event: the ring covers [now, now + horizon). */
  private now = 0;
  private size = 0;
  /** Events too far ahead for the ring (none that bulk decode makes; see the class comment). */
  private readonly far = new DecodeEventHeap();
  /** The events taken by the last {@link takeDue}, in seq order. */
  dueSeq = new Float64Array(16);
  duePos = new Int32Array(16);
  dueMark = new Float64Array(16);

  /** A calendar covering at least `span` steps ahead in its ring (rounded up to a power of two). */
  constructor(span: number) {
    let horizon = 2;
    while (horizon < span) horizon *= 2;
    this.mask = horizon - 1;
    this.counts = new Int32Array(horizon);
    this.seqs = [];
    this.posHint = [];
    this.markHint = [];
    for (let b = 0; b < horizon; b++) {
      this.seqs.push(new Float64Array(4));
      this.posHint.push(new Int32Array(4));
      this.markHint.push(new Float64Array(4));
    }
  }

  /** Steps ahead of the earliest pending one that the ring holds. */
  get horizon(): number {
    return this.mask + 1;
  }

  /** Events pending. */
  get length(): number {
    return this.size;
  }

  /** Drops every event; the earliest pending step stays (steps only move forward). */
  clear(): void {
    if (this.size === 0) return;
    this.counts.fill(0);
    this.far.clear();
    this.size = 0;
  }

  /** Queues the event of request `seq` at `step` (not before the step last taken), with its two hints. */
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
    if (k === this.seqs[b].length) this.growBucket(b);
    this.seqs[b][k] = seq;
    this.posHint[b][k] = pos;
    this.markHint[b][k] = mark;
    this.counts[b] = k + 1;
  }

  /**
   * Takes the events of `step` (no event may be pending before it) into {@link dueSeq},
   * {@link duePos} and {@link dueMark}, ascending by seq; returns how many. An event that
   * went to the far heap has hints -1.
   */
  takeDue(step: number): number {
    if (step < this.now) throw new InvariantViolation('INV-3', `bulk decode: step ${step} taken after step ${this.now}`);
    if (step - this.now > this.mask) {
      // Every ring bucket up to `step` is empty (the caller takes each step in turn or clears).
      if (this.size > this.far.size) throw new InvariantViolation('INV-3', `bulk decode: step ${step} taken with earlier events pending`);
    } else {
      for (let s = this.now; s < step; s++) {
        if (this.counts[s & this.mask] !== 0) throw new InvariantViolation('INV-3', `bulk decode: step ${step} taken with events of step ${s} pending`);
      }
    }
    if (this.far.size > 0 && this.far.peekStep() < step) throw new InvariantViolation('INV-3', `bulk decode: step ${step} taken with an event of step ${this.far.peekStep()} pending`);
    this.now = step;
    if (this.size === 0) return 0;
    const b = step & this.mask;
    let n = this.counts[b];
    if (n > this.dueSeq.length) this.growDue(n);
    const seqs = this.seqs[b];
    const pos = this.posHint[b];
    const mark = this.markHint[b];
    const ds = this.dueSeq;
    const dp = this.duePos;
    const dm = this.dueMark;
    // Insertion sort by seq: a bucket is filled mostly in running order, and holds few events.
    for (let i = 0; i < n; i++) {
      const s = seqs[i];
      let j = i;
      while (j > 0 && ds[j - 1] > s) {
        ds[j] = ds[j - 1];
        dp[j] = dp[j - 1];
        dm[j] = dm[j - 1];
        j--;
      }
      ds[j] = s;
      dp[j] = pos[i];
      dm[j] = mark[i];
    }
    this.counts[b] = 0;
    const far = this.far;
    if (far.size > 0 && far.peekStep() === step) n = this.takeFar(step, n);
    this.size -= n;
    return n;
  }

  /** Merges the far events of `step` into the `n` due ones, keeping seq order; returns the new count. */
  private takeFar(step: number, n: number): number {
    const far = this.far;
    while (far.size > 0 && far.peekStep() === step) {
      const s = far.peekSeq();
      far.pop();
      if (n === this.dueSeq.length) this.growDue(n + 1);
      let j = n;
      while (j > 0 && this.dueSeq[j - 1] > s) {
        this.dueSeq[j] = this.dueSeq[j - 1];
        this.duePos[j] = this.duePos[j - 1];
        this.dueMark[j] = this.dueMark[j - 1];
        j--;
      }
      this.dueSeq[j] = s;
      this.duePos[j] = -1;
      this.dueMark[j] = -1;
      n++;
    }
    return n;
  }

  private growBucket(b: number): void {
    const cap = this.seqs[b].length * 2;
    const s = new Float64Array(cap);
    s.set(this.seqs[b]);
    this.seqs[b] = s;
    const p = new Int32Array(cap);
    p.set(this.posHint[b]);
    this.posHint[b] = p;
    const m = new Float64Array(cap);
    m.set(this.markHint[b]);
    this.markHint[b] = m;
  }

  private growDue(n: number): void {
    let cap = this.dueSeq.length;
    while (cap < n) cap *= 2;
    const s = new Float64Array(cap);
    s.set(this.dueSeq);
    this.dueSeq = s;
    const p = new Int32Array(cap);
    p.set(this.duePos);
    this.duePos = p;
    const m = new Float64Array(cap);
    m.set(this.dueMark);
    this.dueMark = m;
  }
}
