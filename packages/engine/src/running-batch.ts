import type { MirrorBatch } from '@blis/kvcache';
import type { SimRequest } from './request.js';

/** Below this many positions a shift moves values one by one (measured: break-even near 60). */
const SHORT_SHIFT = 48;

/**
 * An instance's running requests in admission order, with the per-step counters of each held
 * in typed arrays by position (struct of arrays).
 *
 * Every step walks the whole running batch, up to hundreds of requests, and between two steps
 * of one instance every other instance runs its own: the requests' objects are out of the CPU
 * cache by then, two cache lines each. Packed counters cost a few sequential lines per step.
 *
 * While a request is in the batch these arrays are the truth for its progress, grant, deferred
 * KV tokens and ITL sums; the grant and KV counters exist only here, and {@link writeBack}
 * copies progress and ITLs to the request when it leaves.
 */
export class RunningBatch implements MirrorBatch {
  /** The requests, by position. */
  readonly reqs: SimRequest[] = [];
  /** Tokens processed (prompt tokens during prefill, then one per decode step). */
  progress!: Int32Array;
  inputTokens!: Int32Array;
  finalProgress!: Int32Array;
  /** Tokens granted in the current step. */
  granted!: Int32Array;
  /** Decode tokens that still fit in the last KV block, and those not yet handed to the cache. */
  kvRoom!: Int32Array;
  kvDeferred!: Int32Array;
  itlSum!: Float64Array;
  /** The request's KV owner id and number of KV block hashes, so that opening a decode block past them needs no request object. */
  kvOwner!: Int32Array;
  hashCount!: Int32Array;
  /** The request's index in its workload: names it to KV tiers across steps. */
  keys!: Int32Array;
  /**
   * Admission order, increasing along the batch: names a position across removals (see
   * {@link positionOf}).
   */
  seq!: Float64Array;
  /**
   * Bulk decode (see bulk-decode.ts): the instance's bulk-step count and ITL sum at which
   * this position's counters were last brought up to date. Meaningful only for the positions
   * the instance advances in bulk.
   */
  baseStep!: Float64Array;
  baseItl!: Float64Array;
  /** Positions removed so far: a position noted with it bounds how far the request has moved since (see {@link positionNear}). */
  removed = 0;
  private nextSeq = 0;

  constructor(capacity: number) {
    this.allot(capacity);
  }

  get length(): number {
    return this.reqs.length;
  }

  /** The batch as a KV tier's mirror reads it. */
  get count(): number {
    return this.reqs.length;
  }

  get owners(): Int32Array {
    return this.kvOwner;
  }

  get hashCounts(): Int32Array {
    return this.hashCount;
  }

  hashesOf(i: number): ArrayLike<number> {
    return this.reqs[i].blockHashes;
  }

  /** Appends a request just admitted with `granted` tokens, resuming from its progress. */
  push(r: SimRequest, granted: number): void {
    const i = this.reqs.length;
    if (i === this.progress.length) this.grow();
    this.reqs.push(r);
    this.progress[i] = r.progress;
    this.inputTokens[i] = r.inputTokens;
    this.finalProgress[i] = r.finalProgress;
    this.granted[i] = granted;
    this.kvRoom[i] = 0;
    this.kvDeferred[i] = 0;
    // A (re)admitted request has seen no ITL of this attempt (preemption clears them).
    this.itlSum[i] = 0;
    this.kvOwner[i] = r.kvOwner;
    this.hashCount[i] = r.blockHashes.length;
    this.keys[i] = r.spec.index;
    this.seq[i] = this.nextSeq++;
  }

  /** The position of the request admitted as `seq`, which must be in the batch (binary search). */
  positionOf(seq: number): number {
    let lo = 0;
    let hi = this.reqs.length - 1;
    const s = this.seq;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s[mid] < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * The position of the request admitted as `seq`, which must be in the batch and is known to have
   * been at `hint` when {@link removed} was `mark` and to be at `lo` or after. Positions only
   * move down, one per removal ahead of them, so it is within `removed - mark` below `hint`: no
   * search at all when nothing left since.
   */
  positionNear(seq: number, hint: number, mark: number, lo: number): number {
    // Past the batch's end the arrays hold stale counters: the search stays inside it.
    let hi = hint < this.reqs.length ? hint : this.reqs.length - 1;
    let l = hint - (this.removed - mark);
    if (l < lo) l = lo;
    const s = this.seq;
    // A few removals since: step down from the hint, one per removal ahead of the request.
    if (hi - l <= 4) {
      while (hi > l && s[hi] > seq) hi--;
      return hi;
    }
    while (l < hi) {
      const mid = (l + hi) >>> 1;
      if (s[mid] < seq) l = mid + 1;
      else hi = mid;
    }
    return l;
  }

  /** Copies position `i`'s counters back to its request (it is leaving the batch). */
  writeBack(i: number): void {
    const r = this.reqs[i];
    r.progress = this.progress[i];
    r.itlSum = this.itlSum[i];
    // One ITL per decode step since the last (re)admission: exactly the tokens past the prompt.
    r.itlCount = Math.max(0, this.progress[i] - this.inputTokens[i]);
  }

  /** Removes position `i`, keeping the order of the rest (preemption, timeout: rare). */
  removeAt(i: number): void {
    const n = this.reqs.length;
    this.reqs.splice(i, 1);
    this.removed++;
    this.shift(i + 1, n, i);
  }

  /**
   * Removes the positions listed in `gone` (ascending, `count` of them), keeping the order of
   * the rest: one block move per array per gap, not one per surviving request.
   */
  removeSorted(gone: Int32Array, count: number): void {
    const n = this.reqs.length;
    let to = gone[0];
    for (let k = 0; k < count; k++) {
      const from = gone[k] + 1;
      const end = k + 1 < count ? gone[k + 1] : n;
      if (end > from) {
        this.shift(from, end, to);
        for (let i = from; i < end; i++) this.reqs[to + i - from] = this.reqs[i];
        to += end - from;
      }
    }
    this.reqs.length = to;
    this.removed += count;
  }

  /**
   * Moves the counters of positions [from, end) to start at `to` (< from). A batch's gaps are
   * short (a few dozen positions): there thirteen `copyWithin` calls cost more in call overhead
   * (~13 ns each) than moving the values one by one, so only long stretches use them.
   */
  private shift(from: number, end: number, to: number): void {
    if (end - from < SHORT_SHIFT) {
      this.shiftEach(from, end, to);
      return;
    }
    this.progress.copyWithin(to, from, end);
    this.inputTokens.copyWithin(to, from, end);
    this.finalProgress.copyWithin(to, from, end);
    this.granted.copyWithin(to, from, end);
    this.kvRoom.copyWithin(to, from, end);
    this.kvDeferred.copyWithin(to, from, end);
    this.itlSum.copyWithin(to, from, end);
    this.kvOwner.copyWithin(to, from, end);
    this.hashCount.copyWithin(to, from, end);
    this.keys.copyWithin(to, from, end);
    this.seq.copyWithin(to, from, end);
    this.baseStep.copyWithin(to, from, end);
    this.baseItl.copyWithin(to, from, end);
  }

  private shiftEach(from: number, end: number, to: number): void {
    const { progress, inputTokens, finalProgress, granted, kvRoom, kvDeferred, itlSum, kvOwner, hashCount, keys, seq, baseStep, baseItl } = this;
    for (let i = from, j = to; i < end; i++, j++) {
      progress[j] = progress[i];
      inputTokens[j] = inputTokens[i];
      finalProgress[j] = finalProgress[i];
      granted[j] = granted[i];
      kvRoom[j] = kvRoom[i];
      kvDeferred[j] = kvDeferred[i];
      itlSum[j] = itlSum[i];
      kvOwner[j] = kvOwner[i];
      hashCount[j] = hashCount[i];
      keys[j] = keys[i];
      seq[j] = seq[i];
      baseStep[j] = baseStep[i];
      baseItl[j] = baseItl[i];
    }
  }

  private grow(): void {
    this.allot(this.progress.length * 2);
  }

  /** Every column at `capacity`, holding what it held (nothing yet, from the constructor). */
  private allot(capacity: number): void {
    const c = new Columns(capacity);
    this.progress = c.int32(this.progress);
    this.inputTokens = c.int32(this.inputTokens);
    this.finalProgress = c.int32(this.finalProgress);
    this.granted = c.int32(this.granted);
    this.kvRoom = c.int32(this.kvRoom);
    this.kvDeferred = c.int32(this.kvDeferred);
    this.itlSum = c.float64(this.itlSum);
    this.kvOwner = c.int32(this.kvOwner);
    this.hashCount = c.int32(this.hashCount);
    this.keys = c.int32(this.keys);
    this.seq = c.float64(this.seq);
    this.baseStep = c.float64(this.baseStep);
    this.baseItl = c.float64(this.baseItl);
  }
}

/** The batch's counters: 4 columns of doubles, then 9 of int32s. */
const FLOAT64_COLUMNS = 4;
const INT32_COLUMNS = 9;

/**
 * The batch's thirteen columns carved from one buffer. Every typed array past 64 bytes gets its
 * own off-heap store, which costs V8 (Node 20) about a microsecond to set up and the GC to track,
 * and a search's evaluation builds a batch per instance per scenario: one store instead of
 * thirteen. The doubles come first, so that every column is aligned.
 */
class Columns {
  private readonly buffer: ArrayBuffer;
  private float64s = 0;
  private int32s = 0;

  constructor(private readonly capacity: number) {
    this.buffer = new ArrayBuffer(capacity * (8 * FLOAT64_COLUMNS + 4 * INT32_COLUMNS));
  }

  /** The next column of doubles, holding `from`'s values when there are any. */
  float64(from: Float64Array | undefined): Float64Array {
    if (this.float64s === FLOAT64_COLUMNS) throw new Error('RunningBatch: a column of doubles too many');
    const a = new Float64Array(this.buffer, 8 * this.capacity * this.float64s++, this.capacity);
    if (from !== undefined) a.set(from);
    return a;
  }

  /** The next int32 column, holding `from`'s values when there are any. */
  int32(from: Int32Array | undefined): Int32Array {
    if (this.int32s === INT32_COLUMNS) throw new Error('RunningBatch: an int32 column too many');
    const a = new Int32Array(this.buffer, 8 * this.capacity * FLOAT64_COLUMNS + 4 * this.capacity * this.int32s++, this.capacity);
    if (from !== undefined) a.set(from);
    return a;
  }
}
