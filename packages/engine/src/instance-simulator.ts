import { EventKind } from './event-kinds.js';
import { InstanceStep } from './instance-step.js';
import { InvariantViolation } from './invariant-error.js';
import { RequestState, type SimRequest } from './request.js';

export type { InstanceHooks } from './instance-hooks.js';

/**
 * One vLLM instance: wait queue, running batch, paged KV cache and latency model, driven by
 * events on a (possibly shared) event queue. Implements BLIS's step exactly: form the batch
 * (running requests first, then admissions), execute it, retire completions, schedule the
 * next step. See docs/engine-semantics.md for the rules and their parity evidence.
 */
export class InstanceSimulator extends InstanceStep {

  get queueDepth(): number {
    return this.waitQueue.length;
  }

  get batchSize(): number {
    return this.run.length;
  }

  /** Running requests in admission order (read-only; their counters live in the batch). */
  get running(): readonly SimRequest[] {
    return this.run.reqs;
  }

  /**
   * Calls `fn` for each running request with its live counters, which the batch holds while it
   * runs (the request's own fields are stale until it leaves): tokens processed and the sum of
   * its inter-token latencies so far. For live observers (a server on the simulator's timeline).
   */
  forEachRunning(fn: (req: SimRequest, progress: number, itlSumUs: number) => void): void {
    const run = this.run;
    const bulk = this.bulk;
    for (let i = 0; i < run.reqs.length; i++) {
      if (bulk === undefined) fn(run.reqs[i], run.progress[i], run.itlSum[i]);
      else fn(run.reqs[i], bulk.progressOf(i), bulk.itlSumOf(i));
    }
  }

  /** A routed request reaches the instance: it enters the wait queue after the alpha queueing delay. */
  inject(req: SimRequest, now: number): void {
    if (this.defersOwnBlocks) req.deferOwnBlocks();
    req.instance = this.config.index;
    req.routedAt = now;
    const delay = this.config.latency.queueingTime(req.inputTokens);
    if (now + delay > this.lastQueuedDueUs) this.lastQueuedDueUs = now + delay;
    this.events.push(now + delay, this.clsQueued, EventKind.Queued, req.slot);
  }

  /**
   * P/D: holds KV for a decode part whose prompt KV is on its way (BLIS's ReserveTransferredKV,
   * vLLM's WAITING_FOR_REMOTE_KVS): the whole prompt's blocks, with no prefix reuse, held from
   * the transfer's start. False when the cache cannot hold them now, could never hold the
   * request to its last token (it would preempt itself forever), or the request exceeds this
   * pod's context window.
   */
  reserveTransferredKV(req: SimRequest): boolean {
    if (req.finalProgress > this.maxTokensPerRequest) return false;
    // The decode pod's own context window (a per-pool --decode-max-model-len): vLLM there would
    // refuse the request, though BLIS's direct enqueue skips the check.
    const maxLen = this.config.maxModelLen ?? 0;
    if (maxLen > 0 && (req.inputTokens >= maxLen || req.inputTokens + req.spec.outputTokens > maxLen)) return false;
    const owner = this.freeOwners.length > 0 ? this.freeOwners[this.freeOwners.length - 1] : this.nextOwner;
    if (!this.kv.allocate(owner, req.inputTokens, req.blockHashes, 0, true)) return false;
    if (owner === this.nextOwner) this.nextOwner++;
    else this.freeOwners.pop();
    req.kvOwner = owner;
    req.instance = this.config.index;
    req.progress = req.inputTokens;
    return true;
  }

  /**
   * Gives back the memory of the KV cache and its tiers, keeping their counters, for an
   * instance that will never run again (a terminated replica): see `KVCache.retire`. Throws a
   * `KVCacheError`, changing nothing, while any request holds KV here.
   */
  retireKV(): void {
    this.kv.retire();
    this.kvTiers?.retire();
  }

  /** Gives back a reservation whose decode part will not run here. */
  releaseReservedKV(req: SimRequest): void {
    if (req.kvOwner >= 0) this.releaseKV(req);
  }

  /**
   * P/D: the decode part's KV has arrived; it joins the wait queue now. Unlike {@link inject}
   * there is no alpha queueing delay and its prompt is not counted again (BLIS's
   * InjectDecodeOnline). Returns false when its deadline has already passed (it timed out).
   */
  enqueueTransferred(req: SimRequest, now: number): boolean {
    req.routedAt = now;
    const deadline = req.spec.deadlineUs;
    if (deadline > 0 && deadline <= now) {
      this.releaseReservedKV(req);
      req.state = RequestState.TimedOut;
      this.metrics.timedOut++;
      this.hooks.onTimedOut?.(req, now);
      return false;
    }
    if (deadline > 0) this.events.push(deadline, this.clsTimeout, EventKind.Timeout, req.slot);
    this.enqueue(req, now);
    return true;
  }

  /**
   * Takes requests off this instance without finishing them (a drain): the queued ones that
   * `keep` does not retain and, with `running`, the running ones. Their KV is freed; they are
   * returned with their state untouched, for the caller to account for.
   */
  evacuate(running: boolean, keep?: (r: SimRequest) => boolean): SimRequest[] {
    const out: SimRequest[] = [];
    if (running) this.bulk?.materialize();
    for (const r of this.waitQueue.toArray()) {
      if (keep?.(r)) continue;
      this.waitQueue.remove(r);
      this.kvTiers?.clearDeferred(r.spec.index);
      if (r.kvOwner >= 0) this.releaseKV(r);
      if (r.adapterPinned) this.releaseAdapter(r);
      out.push(r);
    }
    while (running && this.run.length > 0) {
      const i = this.run.length - 1;
      const r = this.run.reqs[i];
      this.run.writeBack(i);
      this.run.removeAt(i);
      this.releaseKV(r);
      if (r.adapterPinned) this.releaseAdapter(r);
      out.push(r);
    }
    return out;
  }

  /**
   * Ends a queued or running request here without finishing it (the gateway's in-flight
   * eviction): it leaves its queue or batch and its KV is freed; the caller accounts for it.
   * False when it is not here (still in its alpha queueing delay, or gone).
   */
  evict(req: SimRequest): boolean {
    if (req.instance !== this.config.index) return false;
    if (req.state === RequestState.Queued) {
      this.waitQueue.remove(req);
      this.kvTiers?.clearDeferred(req.spec.index);
      if (req.kvOwner >= 0) this.releaseKV(req);
    } else if (req.state === RequestState.Running) {
      this.bulk?.materialize();
      const i = this.run.reqs.indexOf(req);
      this.run.writeBack(i);
      this.run.removeAt(i);
      this.releaseKV(req);
    } else return false;
    req.state = RequestState.Rejected;
    return true;
  }

  /**
   * Executes one of this instance's events. Returns false for a deadline of a request that has
   * already left (the client's timer, cancelled by the response): nothing happened, and the
   * run's end must not move to it (BLIS skips such timeouts before advancing its clock).
   */
  handle(kind: number, arg: number, now: number): boolean {
    let acted = true;
    switch (kind) {
      case EventKind.Queued:
        this.onQueued(this.queuedRequest(arg), now);
        break;
      case EventKind.Step:
        this.step(now);
        break;
      case EventKind.Timeout:
        acted = this.onTimeout(arg, now);
        break;
      case EventKind.AdapterLoaded:
        this.onAdapterLoaded(now);
        break;
      default:
        throw new Error(`instance ${this.config.id} cannot handle event kind ${kind}`);
    }
    if (this.config.checkInvariants) this.checkWorkConservation();
    return acted;
  }

  /** The request of a Queued event: it is live until it reaches the wait queue. */
  private queuedRequest(slot: number): SimRequest {
    const req = this.lookup(slot);
    if (req === undefined) throw new InvariantViolation('INV-2', `instance ${this.config.id}: no live request in slot ${slot} reaches the wait queue`);
    return req;
  }

  private onQueued(req: SimRequest, now: number): void {
    // BLIS's context-window guard, before the prompt counts as received. The workload's output
    // length is the request's max_tokens, so vLLM would refuse prompt + output over the window
    // outright; a prompt that fills it leaves no room for even one token.
    const maxLen = this.config.maxModelLen ?? 0;
    if (maxLen > 0 && (req.inputTokens >= maxLen || req.inputTokens + req.spec.outputTokens > maxLen)) {
      this.drop(req, now);
      return;
    }
    // A request whose KV footprint (prompt plus every generated token but the last) exceeds the
    // whole cache would preempt itself forever: drop it. BLIS checks the prompt alone and so
    // livelocks on a prompt that fits but cannot finish decoding.
    if (req.finalProgress > this.maxTokensPerRequest) {
      this.drop(req, now);
      return;
    }
    // Counted once the request is taken, as BLIS counts it: an unservable one is not.
    this.metrics.totalInputTokens += req.inputTokens;
    // As in BLIS, a deadline is watched only once the request reaches the wait queue: one that
    // passed on the way (admission, routing, gateway queue, alpha delay) times out here. Arming
    // it at routing instead let it fire while the Queued event was still pending, after the
    // cluster had freed the request's slot.
    const deadline = req.spec.deadlineUs;
    if (deadline > 0 && deadline <= now) {
      req.state = RequestState.TimedOut;
      this.metrics.timedOut++;
      this.hooks.onTimedOut?.(req, now);
      return;
    }
    if (deadline > 0) this.events.push(deadline, this.clsTimeout, EventKind.Timeout, req.slot);
    this.enqueue(req, now);
  }

  /** The adapter load in flight completed: its adapter is resident, and a step admits its requests. */
  private onAdapterLoaded(now: number): void {
    this.lora!.completeLoad();
    if (!this.stepPending) {
      this.stepPending = true;
      this.events.push(now, this.clsStep, EventKind.Step, -1);
    }
  }

  private enqueue(req: SimRequest, now: number): void {
    if (this.lora !== undefined) req.adapter = this.lora.indexOf(req.spec.adapter);
    req.state = RequestState.Queued;
    req.enqueuedAt = now;
    req.enqueueSeq = this.enqueueSeq++;
    const pri = this.config.priority;
    if (pri !== undefined && !req.priorityHinted) req.view.priority = pri.priority(req.view, now);
    this.waitQueue.pushBack(req);
    this.hooks.onQueued?.(req, now, this.config.index);
    if (!this.stepPending) {
      this.stepPending = true;
      this.events.push(now, this.clsStep, EventKind.Step, -1);
    }
  }

  private drop(req: SimRequest, now: number): void {
    req.state = RequestState.Dropped;
    this.metrics.dropped++;
    this.hooks.onDropped(req, now);
  }

  private onTimeout(slot: number, now: number): boolean {
    let req: SimRequest | undefined;
    try {
      req = this.lookup(slot);
    } catch {
      return false; // already gone
    }
    if (req === undefined) return false; // already gone
    if (req.instance !== this.config.index || req.spec.deadlineUs !== now) return false;
    // Only a queued or running request has its deadline watched. In particular a P/D decode part
    // whose KV is still moving (pending, its deadline checked on arrival by enqueueTransferred)
    // may sit in the slot its prefill part left, on the same shared pod and with the same
    // deadline: that part's stale timeout must not end it.
    if (req.state !== RequestState.Queued && req.state !== RequestState.Running) return false;
    if (req.state === RequestState.Queued) {
      this.waitQueue.remove(req);
      this.kvTiers?.clearDeferred(req.spec.index);
      // A decode part waits holding the KV that was transferred to it.
      if (req.kvOwner >= 0) this.releaseKV(req);
    }
    else if (req.state === RequestState.Running) {
      this.bulk?.materialize();
      const i = this.run.reqs.indexOf(req);
      this.run.writeBack(i);
      this.run.removeAt(i);
      this.releaseKV(req);
    }
    if (req.adapterPinned) this.releaseAdapter(req);
    req.state = RequestState.TimedOut;
    this.metrics.timedOut++;
    this.hooks.onTimedOut?.(req, now);
    return true;
  }
}
