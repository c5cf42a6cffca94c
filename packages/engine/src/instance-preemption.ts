import type { SimRequest } from './request.js';
import { RequestState } from './request.js';
import { InstanceState } from './instance-state.js';

/** A flag of {@link InstancePreemption.allocateOrPreempt}: something was evicted. */
export const PREEMPTED = 1;
/** A flag of {@link InstancePreemption.allocateOrPreempt}: the request cannot be scheduled this step. */
export const FAILED = 2;
const NO_HASHES: ArrayLike<number> = new Float64Array(0);

/**
 * KV allocation under pressure: a running request's decode token or prefill chunk, evicting
 * running requests (newest first, or least urgent) until it fits, and P/D reservations given
 * back when they would starve the instance.
 */
export abstract class InstancePreemption extends InstanceState {

  /**
   * P/D: decode parts waiting in the queue hold the KV transferred to them. When they hold so
   * much of the cache that nothing would run (the head of the queue cannot start with nothing
   * running, or the only running request would evict itself), no step would ever free a block
   * and the instance would spin for ever (BLIS does): the youngest of them gives its KV back and
   * will be prefilled again on this pod, as a preempted decode part is (vLLM's recompute
   * preemption). `spare` (the request being served) goes last, and only if it is queued.
   * False when no queued request holds KV.
   */
  protected releaseQueuedReservation(spare: SimRequest, now: number): boolean {
    const q = this.waitQueue;
    let victim: SimRequest | undefined;
    for (let i = q.length - 1; i >= 0 && victim === undefined; i--) {
      const r = q.at(i);
      if (r.kvOwner >= 0 && r !== spare) victim = r;
    }
    if (victim === undefined && spare.kvOwner >= 0 && spare.state === RequestState.Queued) victim = spare;
    if (victim === undefined) return false;
    this.registerOwnBlocks(victim);
    this.releaseKV(victim);
    victim.progress = 0;
    victim.preemptions++;
    this.metrics.preemptions++;
    this.hooks.onPreempted?.(victim, now, this.config.index);
    return true;
  }

  /**
   * BLIS's allocation for a request whose prompt blocks were partly reloaded from the CPU while
   * its chunk was sized from the GPU prefix alone: the reloaded blocks are claimed as prefix
   * hits, and only the tokens after them up to `end` are stored fresh (none when the claimed
   * blocks reach `end`).
   */
  protected allocateRecomputed(owner: number, end: number, hashes: ArrayLike<number>, cached: number): boolean {
    const bs = this.config.blockSizeTokens;
    if (cached * bs >= end) return this.kv.allocate(owner, 0, hashes, Math.min(Math.ceil(end / bs), cached), true);
    return this.kv.allocate(owner, end - cached * bs, hashes, cached, true);
  }

  /**
   * Allocates KV for `req`, evicting running requests (newest first, or least urgent) until it
   * fits. Returns a bit set: `PREEMPTED` when anything was evicted, `FAILED` when
   * `req` cannot be scheduled this step (no victims left, or `req` itself was evicted).
   */
  protected allocateOrPreempt(req: SimRequest, idx: number, n: number, prefill: boolean, now: number, alreadyFailed = false): number {
    let flags = 0;
    let at = idx;
    // The caller may have made the first attempt itself (the decode fast path).
    let tried = alreadyFailed;
    for (;;) {
      if (!tried && (prefill ? this.kv.allocate(req.kvOwner, n, req.blockHashes, 0, true) : this.appendDecodeToken(at))) return flags;
      tried = false;
      this.metrics.batchKvAllocationFailures++;
      this.kvTiers?.allocationFailed();
      if (this.run.length === 0) return flags | FAILED;
      const victimIdx = this.pickVictim(now);
      const victim = this.run.reqs[victimIdx];
      // Evicting the only running request would leave nothing running: queued decode parts
      // holding transferred KV give theirs back first (see releaseQueuedReservation).
      if (victim === req && this.run.length === 1 && this.releaseQueuedReservation(req, now)) continue;
      flags |= PREEMPTED;
      this.preempt(victimIdx, now);
      if (victim === req) return flags | FAILED;
      if (victimIdx < at) at--;
    }
  }

  /**
   * Stores one decode token of the running request at position `i` in the KV cache, or returns
   * false when it needs a block and none is free. The cache is consulted only for the token
   * that opens a new block: the ones that fit in the last block (kvRoom, granted by the cache)
   * are counted in the batch and handed over with that token, so most decode steps touch no KV
   * cache state at all.
   */
  protected appendDecodeToken(i: number): boolean {
    const run = this.run;
    if (run.kvRoom[i] > 0) {
      run.kvRoom[i]--;
      run.kvDeferred[i]++;
      return true;
    }
    const owner = run.kvOwner[i];
    // Block hashes matter to the cache only while it may fill a block that has one; past the
    // hashed blocks, leaving them out spares a read of the (cold) request object.
    const hashes = this.kv.blocksHeldBy(owner) > run.hashCount[i] ? NO_HASHES : run.reqs[i].blockHashes;
    const room = this.kv.openDecodeBlock(owner, run.kvDeferred[i] + 1, hashes);
    if (room < 0) return false;
    run.kvDeferred[i] = 0;
    run.kvRoom[i] = room;
    return true;
  }

  protected pickVictim(now: number): number {
    const run = this.run.reqs;
    if (this.config.preemptionPolicy !== 'priority') return run.length - 1;
    // Age-dependent priorities must be compared at one instant: a running request keeps the
    // priority it had when admitted, and a just-requeued one is re-scored on every step, so
    // comparing stale scores lets requests evict each other forever, none ever finishing.
    const pri = this.config.priority;
    if (pri?.timeDependent) for (let i = 0; i < run.length; i++) if (!run[i].priorityHinted) run[i].view.priority = pri.priority(run[i].view, now);
    let best = run.length - 1;
    for (let i = run.length - 2; i >= 0; i--) if (run[i].view.priority < run[best].view.priority) best = i;
    return best;
  }

  /** Tokens granted this step to requests preempted since the last call (vLLM refunds them). */
  protected takeRefund(): number {
    const r = this.refund;
    this.refund = 0;
    return r;
  }

  /** Evicts the running request at position `i` back to the head of the wait queue. */
  protected preempt(i: number, now: number): void {
    const victim = this.run.reqs[i];
    // Under priority preemption the victim may sit ahead of the request being served and
    // already hold tokens of this step's budget: they go back, as in vLLM.
    this.refund += this.run.granted[i];
    this.run.removeAt(i);
    this.metrics.preemptions++;
    victim.preemptions++;
    if (victim.ttft >= 0) victim.preemptedAfterFirstToken = true;
    victim.state = RequestState.Queued;
    victim.progress = 0;
    victim.itlCount = 0;
    victim.itlSum = 0;
    this.registerOwnBlocks(victim);
    this.releaseKV(victim);
    // Back in the queue it uses no adapter (vLLM counts only scheduled requests against
    // max_loras); BLIS keeps the pin, and a cold head behind a full set so pinned waits for ever.
    if (victim.adapterPinned) this.releaseAdapter(victim);
    this.waitQueue.pushFront(victim);
    this.hooks.onPreempted?.(victim, now, this.config.index);
  }
}
