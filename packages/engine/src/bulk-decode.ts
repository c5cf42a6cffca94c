import type { KVCache } from '@blis/kvcache';
import type { StepBatch } from '@blis/latency';
import { DecodeCalendar, EVENT_FIELDS } from './decode-calendar.js';
import { InvariantViolation } from './invariant-error.js';
import type { RunningBatch } from './running-batch.js';

const NO_HASHES: ArrayLike<number> = new Float64Array(0);
/** Steps without bulk decode after it had to stop (KV pressure, budget): spares adopting a batch that would fall back at once. */
const COOLDOWN_STEPS = 16;

/**
 * Bulk decode: advances the running requests that are in plain decode without touching each
 * one every step.
 *
 * Between the steps where something happens to it (it opens a KV block, it completes), a
 * decoding request gains one token and the step's ITL each step, and hands its token to the
 * KV cache only as a deferred count. So its counters are kept as of a base step, and its
 * state at step D is the base plus (D - base) tokens and the ITLs summed since: the instance
 * keeps a count of bulk steps and a running sum of their ITLs. ITLs are integer microseconds,
 * so that difference of sums is exact and equals the per-step sum the step-by-step engine
 * makes. Each request has one pending event on a calendar of steps (decode-calendar.ts): the
 * step where it opens a block (its KV room runs out) or completes, at most a block's worth of
 * steps ahead. Events of one step are handled in running order (admission seq ascending), so
 * KV allocations and releases happen in the order the step-by-step engine makes them; each
 * event notes its request's position and the batch's removal count when it was scheduled,
 * which finds the position again without a search while nothing ahead of it has left.
 *
 * Positions [0, count) of the running batch are bulk-advanced; a step is taken in bulk only
 * when they are the whole batch, their decode tokens fit the budget and every block they
 * open this step is free (each opens at most one, so none can fail and nothing is
 * preempted). Otherwise {@link materialize} brings every counter up to date and the instance
 * steps one request at a time, as the reference engine always does.
 */
export class BulkDecode {
  /** Positions [0, count) of the running batch are advanced in bulk. */
  count = 0;
  /** Bulk steps taken, and the sum of their ITLs: the clocks the positions' bases refer to. */
  private steps = 0;
  private itl = 0;
  /** Sum of the bulk positions' contexts (tokens processed) at the start of the current step. */
  private contextSum = 0;
  private readonly calendar: DecodeCalendar;
  /** This step's due events: positions, ascending, and the KV room after opening a block (-1: none opened). */
  private duePos = new Int32Array(16);
  private dueRoom = new Int32Array(16);
  private dueCount = 0;
  private cooldown = 0;
  /** The earliest step a bulk position completes in, unless {@link completionStale}. */
  private firstCompletion = Number.POSITIVE_INFINITY;
  private completionStale = true;
  private readonly run: RunningBatch;
  private readonly kv: KVCache;

  constructor(run: RunningBatch, kv: KVCache) {
    this.run = run;
    this.kv = kv;
    // A request's next event is at most its KV room ahead, which is below the block size.
    this.calendar = new DecodeCalendar(kv.blockSizeTokens + 2);
  }

  /**
   * Start of a step with `budget` tokens: true when this step can be taken in bulk, its due
   * events then taken off the calendar. False: the caller calls {@link materialize}.
   */
  begin(budget: number): boolean {
    const run = this.run;
    const n = this.count;
    if (n === 0 || n !== run.length) return false;
    if (n > budget) {
      // More decoding requests than the budget grants tokens: the step stops at the budget.
      this.cooldown = COOLDOWN_STEPS;
      return false;
    }
    const cal = this.calendar;
    const D = this.steps;
    const due = cal.takeDue(D);
    if (due > this.duePos.length) this.growDue(due);
    const ev = cal.events;
    let at = cal.dueAt;
    let opening = 0;
    let lo = 0;
    for (let k = 0; k < due; k++, at += EVENT_FIELDS) {
      const seq = ev[at];
      const hint = ev[at + 1];
      const p = hint < 0 ? run.positionOf(seq) : run.positionNear(seq, hint, ev[at + 2], lo);
      if (run.seq[p] !== seq) throw new InvariantViolation('INV-4', `bulk decode: the request admitted as ${seq} is not at position ${p}`);
      lo = p + 1;
      this.duePos[k] = p;
      const opens = run.baseStep[p] + run.kvRoom[p] === D;
      this.dueRoom[k] = opens ? 0 : -1;
      if (opens) opening++;
    }
    this.dueCount = due;
    if (opening > this.kv.freeBlocks) {
      this.cooldown = COOLDOWN_STEPS;
      return false;
    }
    return true;
  }

  /**
   * Phase 1 of a bulk step: the due requests whose KV room ran out store their deferred tokens
   * and this step's in the cache (a new block), in running order; the batch gets one decode
   * entry per bulk position. Returns the number of decode tokens granted.
   */
  grant(batch: StepBatch, fillContexts: boolean): number {
    const run = this.run;
    const kv = this.kv;
    const D = this.steps;
    for (let k = 0; k < this.dueCount; k++) {
      if (this.dueRoom[k] < 0) continue;
      const p = this.duePos[k];
      const owner = run.kvOwner[p];
      // As the step-by-step engine does: hashes only while the cache may fill a hashed block.
      const hashes = kv.blocksHeldBy(owner) > run.hashCount[p] ? NO_HASHES : run.reqs[p].blockHashes;
      const room = kv.openDecodeBlock(owner, run.kvDeferred[p] + (D - run.baseStep[p]) + 1, hashes);
      if (room < 0) throw new InvariantViolation('INV-4', `bulk decode: a checked block allocation failed for KV owner ${owner}`);
      this.dueRoom[k] = room;
    }
    const n = this.count;
    if (fillContexts) this.fillContexts(batch.decodeContext);
    batch.decodeCount = n;
    return n;
  }

  /** Writes the bulk positions' decode contexts of the current step into `ctx`, in running order. */
  fillContexts(ctx: Int32Array): void {
    const run = this.run;
    const D = this.steps;
    for (let i = 0; i < this.count; i++) ctx[i] = run.progress[i] + (D - run.baseStep[i]);
  }

  /**
   * Steps, from the next one on, before the first one in which a bulk position completes. A
   * request's completion step is fixed while it is in bulk (its base step and progress move
   * together), so the minimum is kept, and found again only after the set changed.
   */
  stepsBeforeCompletion(): number {
    if (this.completionStale) {
      const run = this.run;
      let min = Number.POSITIVE_INFINITY;
      for (let i = 0; i < this.count; i++) {
        const c = run.baseStep[i] + run.finalProgress[i] - run.progress[i] - 1;
        if (c < min) min = c;
      }
      this.firstCompletion = min;
      this.completionStale = false;
    }
    return this.firstCompletion - this.steps;
  }

  /** Events due in the next step (Infinity: some the calendar keeps aside; take the step as usual). */
  dueNext(): number {
    return this.calendar.pendingAt(this.steps);
  }

  /**
   * A step with no due event, the whole batch in bulk, whose ITL is `itl`: what {@link begin},
   * {@link settle} and {@link adopt} do for it. The calendar is not touched: the next
   * {@link begin} takes its step, after checking that the ones skipped held nothing.
   */
  quietStep(itl: number): void {
    this.contextSum += this.count;
    this.steps++;
    this.itl += itl;
  }

  /** Sum of the bulk positions' decode contexts this step. */
  get contexts(): number {
    return this.contextSum;
  }

  /**
   * Execution of a bulk step whose ITL is `itl`: the due requests are brought up to date, in
   * running order; `complete` is called with the position of each that finished (the caller
   * removes them from the batch afterwards), the others get their next event.
   */
  settle(itl: number, complete: (pos: number) => void): void {
    const run = this.run;
    const next = this.steps + 1;
    const sum = this.itl + itl;
    let gone = 0;
    let goneContext = 0;
    for (let k = 0; k < this.dueCount; k++) {
      const p = this.duePos[k];
      run.progress[p] += next - run.baseStep[p];
      run.itlSum[p] += sum - run.baseItl[p];
      run.baseStep[p] = next;
      run.baseItl[p] = sum;
      if (run.progress[p] === run.finalProgress[p]) {
        gone++;
        goneContext += run.progress[p];
        complete(p);
        continue;
      }
      run.kvRoom[p] = this.dueRoom[k];
      run.kvDeferred[p] = 0;
      this.schedule(p);
    }
    this.dueCount = 0;
    this.contextSum += this.count - goneContext;
    this.count -= gone;
    if (gone > 0) this.completionStale = true;
    this.steps = next;
    this.itl = sum;
  }

  /**
   * End of a step: the positions past the bulk ones join them when every one of them is in
   * plain decode (a request still prefilling keeps the whole batch stepping one by one).
   */
  adopt(): void {
    const run = this.run;
    const n = run.length;
    if (this.count === n) return;
    if (this.cooldown > 0) {
      this.cooldown--;
      return;
    }
    for (let i = this.count; i < n; i++) if (run.progress[i] < run.inputTokens[i]) return;
    for (let i = this.count; i < n; i++) {
      run.baseStep[i] = this.steps;
      run.baseItl[i] = this.itl;
      this.contextSum += run.progress[i];
      this.schedule(i);
    }
    this.count = n;
    this.completionStale = true;
  }

  /** Brings every bulk position's counters up to date, as of the start of the next step, and stops bulk decode. */
  materialize(): void {
    const run = this.run;
    const D = this.steps;
    const C = this.itl;
    for (let i = 0; i < this.count; i++) {
      const dd = D - run.baseStep[i];
      run.progress[i] += dd;
      run.itlSum[i] += C - run.baseItl[i];
      run.kvRoom[i] -= dd;
      run.kvDeferred[i] += dd;
    }
    this.count = 0;
    this.completionStale = true;
    this.contextSum = 0;
    this.dueCount = 0;
    this.calendar.clear();
  }

  /** Position `i`'s tokens processed and ITL sum as of now (between steps), without changing anything. */
  progressOf(i: number): number {
    return i < this.count ? this.run.progress[i] + (this.steps - this.run.baseStep[i]) : this.run.progress[i];
  }

  itlSumOf(i: number): number {
    return i < this.count ? this.run.itlSum[i] + (this.itl - this.run.baseItl[i]) : this.run.itlSum[i];
  }

  /** Queues position `p`'s next event: the step where its KV room runs out, or the one it completes in. */
  private schedule(p: number): void {
    const run = this.run;
    const base = run.baseStep[p];
    const opens = base + run.kvRoom[p];
    const completes = base + run.finalProgress[p] - run.progress[p] - 1;
    this.calendar.push(Math.min(opens, completes), run.seq[p], p, run.removed);
  }

  private growDue(n: number): void {
    let cap = this.duePos.length;
    while (cap < n) cap *= 2;
    const pos = new Int32Array(cap);
    pos.set(this.duePos);
    this.duePos = pos;
    this.dueRoom = new Int32Array(cap);
  }
}
