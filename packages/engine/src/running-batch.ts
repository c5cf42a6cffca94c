import type { SimRequest } from './request.js';

/**
 * An instance's running requests in admission order, with the per-step counters of each held
 * in typed arrays by position (struct of arrays).
 *
 * Every step walks the whole running batch, up to hundreds of requests, and between two steps
 * of one instance every other instance runs its own: the requests' objects are out of the CPU
 * cache by then, two cache lines each. Packed counters cost a few sequential lines per step.
 *
 * While a request is in the batch these arrays are the truth for its progress, grant, deferred
 * KV tokens and ITL sums; {@link writeBack} copies them to the request when it leaves.
 */
export class RunningBatch {
  /** The requests, by position. */
  readonly reqs: SimRequest[] = [];
  /** Tokens processed (prompt tokens during prefill, then one per decode step). */
  progress: Int32Array;
  inputTokens: Int32Array;
  finalProgress: Int32Array;
  /** Tokens granted in the current step. */
  granted: Int32Array;
  /** Decode tokens that still fit in the last KV block, and those not yet handed to the cache. */
  kvRoom: Int32Array;
  kvDeferred: Int32Array;
  itlSum: Float64Array;
  itlCount: Int32Array;
  /** The request's KV owner id and number of prompt block hashes, so that opening a decode block needs no request object. */
  kvOwner: Int32Array;
  hashCount: Int32Array;

  constructor(capacity: number) {
    this.progress = new Int32Array(capacity);
    this.inputTokens = new Int32Array(capacity);
    this.finalProgress = new Int32Array(capacity);
    this.granted = new Int32Array(capacity);
    this.kvRoom = new Int32Array(capacity);
    this.kvDeferred = new Int32Array(capacity);
    this.itlSum = new Float64Array(capacity);
    this.itlCount = new Int32Array(capacity);
    this.kvOwner = new Int32Array(capacity);
    this.hashCount = new Int32Array(capacity);
  }

  get length(): number {
    return this.reqs.length;
  }

  /** Appends a request just admitted, taking its counters from the request. */
  push(r: SimRequest): void {
    const i = this.reqs.length;
    if (i === this.progress.length) this.grow();
    this.reqs.push(r);
    this.progress[i] = r.progress;
    this.inputTokens[i] = r.inputTokens;
    this.finalProgress[i] = r.finalProgress;
    this.granted[i] = r.newTokens;
    this.kvRoom[i] = r.kvRoom;
    this.kvDeferred[i] = r.kvDeferred;
    this.itlSum[i] = r.itlSum;
    this.itlCount[i] = r.itlCount;
    this.kvOwner[i] = r.kvOwner;
    this.hashCount[i] = r.blockHashes.length;
  }

  /** Copies position `i`'s counters back to its request (it is leaving the batch). */
  writeBack(i: number): void {
    const r = this.reqs[i];
    r.progress = this.progress[i];
    r.newTokens = this.granted[i];
    r.kvRoom = this.kvRoom[i];
    r.kvDeferred = this.kvDeferred[i];
    r.itlSum = this.itlSum[i];
    r.itlCount = this.itlCount[i];
  }

  /** Removes position `i`, keeping the order of the rest (preemption, timeout: rare). */
  removeAt(i: number): void {
    const n = this.reqs.length;
    this.reqs.splice(i, 1);
    this.progress.copyWithin(i, i + 1, n);
    this.inputTokens.copyWithin(i, i + 1, n);
    this.finalProgress.copyWithin(i, i + 1, n);
    this.granted.copyWithin(i, i + 1, n);
    this.kvRoom.copyWithin(i, i + 1, n);
    this.kvDeferred.copyWithin(i, i + 1, n);
    this.itlSum.copyWithin(i, i + 1, n);
    this.itlCount.copyWithin(i, i + 1, n);
    this.kvOwner.copyWithin(i, i + 1, n);
    this.hashCount.copyWithin(i, i + 1, n);
  }

  /** Moves position `from` to the earlier position `to` (compaction after completions). */
  move(from: number, to: number): void {
    this.reqs[to] = this.reqs[from];
    this.progress[to] = this.progress[from];
    this.inputTokens[to] = this.inputTokens[from];
    this.finalProgress[to] = this.finalProgress[from];
    this.granted[to] = this.granted[from];
    this.kvRoom[to] = this.kvRoom[from];
    this.kvDeferred[to] = this.kvDeferred[from];
    this.itlSum[to] = this.itlSum[from];
    this.itlCount[to] = this.itlCount[from];
    this.kvOwner[to] = this.kvOwner[from];
    this.hashCount[to] = this.hashCount[from];
  }

  truncate(length: number): void {
    this.reqs.length = length;
  }

  private grow(): void {
    const cap = this.progress.length * 2;
    const grow32 = (a: Int32Array) => {
      const b = new Int32Array(cap);
      b.set(a);
      return b;
    };
    this.progress = grow32(this.progress);
    this.inputTokens = grow32(this.inputTokens);
    this.finalProgress = grow32(this.finalProgress);
    this.granted = grow32(this.granted);
    this.kvRoom = grow32(this.kvRoom);
    this.kvDeferred = grow32(this.kvDeferred);
    this.itlCount = grow32(this.itlCount);
    this.kvOwner = grow32(this.kvOwner);
    this.hashCount = grow32(this.hashCount);
    const sums = new Float64Array(cap);
    sums.set(this.itlSum);
    this.itlSum = sums;
  }
}
