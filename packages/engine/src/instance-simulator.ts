import { DEFERRED, KVCache, type KVTiers, createKVTiers } from '@blis/kvcache';
import { type StepBatch, createStepBatch } from '@blis/latency';
import type { SchedulerContext, SchedulerEntry } from '@blis/policies';
import { BulkDecode } from './bulk-decode.js';
import type { EventQueue } from './event-queue.js';
import { EventKind, instanceClass } from './event-kinds.js';
import type { InstanceConfig } from './instance-config.js';
import { InstanceMetrics } from './instance-metrics.js';
import { InvariantViolation } from './invariant-error.js';
import { RequestPart, RequestState, type SimRequest } from './request.js';
import { RunningBatch } from './running-batch.js';
import { WaitQueue } from './wait-queue.js';

const PREEMPTED = 1;
const NO_HASHES: ArrayLike<number> = new Float64Array(0);
const FAILED = 2;

/** What an instance tells its driver (the cluster) about requests leaving it. */
export interface InstanceHooks {
  onCompleted(req: SimRequest, now: number): void;
  onDropped(req: SimRequest, now: number): void;
  onTimedOut?(req: SimRequest, now: number): void;
  /** Observation points for decision traces; absent hooks cost nothing. */
  onQueued?(req: SimRequest, now: number, instance: number): void;
  onScheduled?(req: SimRequest, now: number, instance: number): void;
  onPreempted?(req: SimRequest, now: number, instance: number): void;
  onStep?(now: number, stepTime: number, batch: StepBatch, instance: number): void;
}

/**
 * One vLLM instance: wait queue, running batch, paged KV cache and latency model, driven by
 * events on a (possibly shared) event queue. Implements BLIS's step exactly: form the batch
 * (running requests first, then admissions), execute it, retire completions, schedule the
 * next step. See docs/engine-semantics.md for the rules and their parity evidence.
 */
export class InstanceSimulator {
  readonly config: InstanceConfig;
  readonly kv: KVCache;
  /** The CPU tier or offload chain behind {@link kv}, when configured. */
  readonly kvTiers: KVTiers | undefined;
  readonly metrics = new InstanceMetrics();
  readonly waitQueue = new WaitQueue();
  /** Running requests in admission order, with their per-step counters. */
  private readonly run: RunningBatch;

  private readonly events: EventQueue;
  private readonly lookup: (slot: number) => SimRequest;
  private readonly hooks: InstanceHooks;
  private readonly batch: StepBatch;
  private readonly alpha2: number;
  private readonly clsQueued: number;
  private readonly clsStep: number;
  private readonly clsTimeout: number;
  private stepPending = false;
  /**
   * KV owner ids of requests that left, reused last-in first-out: ids stay below the batch
   * size, so the cache's owner table stays small and warm.
   */
  private readonly freeOwners: number[] = [];
  private nextOwner = 0;
  /** Scratch: batch positions completed in the current step. */
  private completedAt = new Int32Array(16);
  private refund = 0;
  private enqueueSeq = 0;
  /** Decode parts admitted this step: their first decode step ends with their first token. */
  private readonly decodeStarts: SimRequest[] = [];
  /** End tick of the last step, the latest moment this instance did anything. */
  lastBusyUntil = 0;
  private readonly schedCtx: { nowUs: number; instanceIndex: number; queueDepth: number; batchSize: number };
  private readonly compareFn: ((a: SimRequest, b: SimRequest) => number) | undefined;
  private readonly maxTokensPerRequest: number;
  /** Plain decode advanced in bulk; absent in the reference (step-by-step) engine. */
  private readonly bulk: BulkDecode | undefined;
  /** Bulk steps fill the batch's per-request decode contexts only for a reader of them. */
  private readonly fillContexts: boolean;
  private readonly completeAt = (pos: number): void => {
    this.run.writeBack(pos);
    this.complete(this.run.reqs[pos], this.stepEnd);
    if (this.doneCount === this.completedAt.length) this.growCompletedAt();
    this.completedAt[this.doneCount++] = pos;
  };
  private stepEnd = 0;
  private doneCount = 0;

  constructor(config: InstanceConfig, events: EventQueue, lookup: (slot: number) => SimRequest, hooks: InstanceHooks) {
    this.config = config;
    this.events = events;
    this.lookup = lookup;
    this.hooks = hooks;
    this.kv = new KVCache({ totalBlocks: config.totalKVBlocks, blockSizeTokens: config.blockSizeTokens });
    this.kvTiers = config.kvTiers === undefined ? undefined : createKVTiers(config.kvTiers, this.kv, { normal: config.kvTierNormal });
    this.batch = createStepBatch(Math.max(16, config.maxNumSeqs));
    this.run = new RunningBatch(Math.max(16, config.maxNumSeqs));
    this.alpha2 = config.latency.outputTokenTime();
    this.clsQueued = instanceClass(config.index, EventKind.Queued);
    this.clsStep = instanceClass(config.index, EventKind.Step);
    this.clsTimeout = instanceClass(config.index, EventKind.Timeout);
    this.maxTokensPerRequest = config.totalKVBlocks * config.blockSizeTokens;
    this.schedCtx = { nowUs: 0, instanceIndex: config.index, queueDepth: 0, batchSize: 0 };
    // Bulk decode needs integer ITLs (exact sums) from a model that says what it reads, and no
    // KV tier (its mirror walks the batch every step).
    const inputs = config.latency.decodeInputs;
    this.bulk = config.stepByStep !== true && this.kvTiers === undefined && inputs !== undefined && Number.isInteger(this.alpha2) ? new BulkDecode(this.run, this.kv) : undefined;
    this.fillContexts = inputs !== 'count' && inputs !== 'sum' || hooks.onStep !== undefined;
    const sched = config.scheduler;
    if (sched?.compare !== undefined) {
      const cmp = sched.compare.bind(sched);
      const ctx = this.schedCtx as SchedulerContext;
      const ea = { request: undefined, enqueueSeq: 0 } as unknown as { request: unknown; enqueueSeq: number };
      const eb = { request: undefined, enqueueSeq: 0 } as unknown as { request: unknown; enqueueSeq: number };
      this.compareFn = (a, b) => {
        ea.request = a.view;
        ea.enqueueSeq = a.enqueueSeq;
        eb.request = b.view;
        eb.enqueueSeq = b.enqueueSeq;
        return cmp(ea as SchedulerEntry, eb as SchedulerEntry, ctx) || a.enqueueSeq - b.enqueueSeq;
      };
    }
  }

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
    req.instance = this.config.index;
    req.routedAt = now;
    const delay = this.config.latency.queueingTime(req.inputTokens);
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
      out.push(r);
    }
    while (running && this.run.length > 0) {
      const i = this.run.length - 1;
      const r = this.run.reqs[i];
      this.run.writeBack(i);
      this.run.removeAt(i);
      this.releaseKV(r);
      out.push(r);
    }
    return out;
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
        this.onQueued(this.lookup(arg), now);
        break;
      case EventKind.Step:
        this.step(now);
        break;
      case EventKind.Timeout:
        acted = this.onTimeout(arg, now);
        break;
      default:
        throw new Error(`instance ${this.config.id} cannot handle event kind ${kind}`);
    }
    if (this.config.checkInvariants) this.checkWorkConservation();
    return acted;
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

  private enqueue(req: SimRequest, now: number): void {
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
    let req: SimRequest;
    try {
      req = this.lookup(slot);
    } catch {
      return false; // already gone
    }
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
    req.state = RequestState.TimedOut;
    this.metrics.timedOut++;
    this.hooks.onTimedOut?.(req, now);
    return true;
  }

  private step(now: number): void {
    const cfg = this.config;
    const batch = this.batch;
    const run = this.run;
    this.metrics.steps++;
    const tiers = this.kvTiers;
    if (tiers !== undefined) {
      tiers.setClock(now);
      tiers.pollDeferred(now);
    }

    this.prepareWaitQueue(now);

    // The batch is composed while tokens are granted: grants happen in running order, which is
    // the batch's order. Requests granted no tokens are not in the batch, except a fully cached
    // prompt, which completes its prefill at no compute cost. Every running request starts the
    // step with a grant of 0 (the execute loop of the previous step cleared it).
    batch.prefillTokens = 0;
    batch.decodeTokens = 0;
    batch.prefillCount = 0;
    batch.decodeCount = 0;

    // ---- Phase 1: running requests, in admission order.
    let budget = cfg.maxNumBatchedTokens;
    let preempted = false;
    let idx = 0;
    const bulk = this.bulk;
    // Requests in plain decode advanced in bulk this step (then all of the running ones).
    let inBulk = 0;
    if (bulk !== undefined && bulk.count > 0) {
      if (bulk.begin(budget)) {
        inBulk = bulk.grant(batch, this.fillContexts);
        budget -= inBulk;
        idx = inBulk;
      } else bulk.materialize();
    }
    while (idx < run.length) {
      if (budget <= 0) break;
      const progress = run.progress[idx];
      const remainingPrompt = run.inputTokens[idx] - progress;
      if (remainingPrompt > 0) {
        let n = remainingPrompt;
        if (cfg.longPrefillTokenThreshold > 0 && cfg.longPrefillTokenThreshold < n) n = cfg.longPrefillTokenThreshold;
        if (n > budget) n = budget;
        const req = run.reqs[idx];
        // BLIS's accounting (recomputeReloaded) admits a request holding whole cached blocks
        // past the end of its first chunk: those tokens are in the cache already. Allocating
        // them again would leave the request a block over its size for good, and one that
        // fills the cache could then never finish (it preempted itself forever).
        const held = this.kv.tokensHeldBy(req.kvOwner) - progress;
        const r = this.allocateOrPreempt(req, idx, held > 0 ? Math.max(0, n - held) : n, true, now);
        if (r & PREEMPTED) {
          preempted = true;
          budget += this.takeRefund();
          idx = run.reqs.indexOf(req); // a victim ahead of `req` shifted it
        }
        if (r & FAILED) break;
        budget -= n;
        run.granted[idx] = n;
        this.addPrefill(progress, n, run.inputTokens[idx]);
      } else if (run.finalProgress[idx] > progress) {
        // Decoding (a request whose prompt was its whole work left at the end of its prefill
        // step). The common case, a decode token that fits, skips the preemption loop.
        if (!this.appendDecodeToken(idx)) {
          const req = run.reqs[idx];
          const r = this.allocateOrPreempt(req, idx, 1, false, now, true);
          if (r & PREEMPTED) {
            preempted = true;
            budget += this.takeRefund();
            idx = run.reqs.indexOf(req);
          }
          if (r & FAILED) break;
        }
        budget -= 1;
        run.granted[idx] = 1;
        batch.decodeContext[batch.decodeCount++] = progress;
      }
      idx++;
    }

    // ---- Phase 2: admissions from the wait queue (head-of-line; none after a preemption).
    // Only a request waiting for a fetch from an offload tier is skipped rather than blocking.
    let qi = 0;
    while (!preempted && run.length < cfg.maxNumSeqs && qi < this.waitQueue.length && budget > 0) {
      const next = this.waitQueue.at(qi);
      if (next.kvOwner >= 0) {
        // A decode part whose prompt KV arrived by transfer: straight to its first decode token.
        if (!this.admitTransferred(next, qi, now)) {
          if (run.length === 0 && this.releaseQueuedReservation(next, now)) continue;
          break;
        }
        budget -= 1;
        continue;
      }
      const hashes = next.blockHashes;
      const bs = cfg.blockSizeTokens;
      const maxCached = Math.floor(next.inputTokens / bs);
      let cached: number;
      // Where prefill starts: after the cached prefix, or (BLIS's accounting) after the part of
      // it that was on the GPU before the CPU reloaded the rest.
      let startBlocks: number;
      if (tiers === undefined) {
        cached = this.kv.cachedPrefixBlocks(hashes, maxCached);
        startBlocks = cached;
      } else {
        const recompute = tiers.config.recomputeReloaded === true;
        const gpuCached = recompute ? this.kv.cachedPrefixBlocks(hashes, maxCached) : 0;
        cached = tiers.admit(next.spec.index, hashes, maxCached, now);
        if (cached === DEFERRED) {
          // Waiting on a fetch: skip it. A warm fetch the evictable gate refused on the spot
          // is not waiting, and stops admissions for this step (BLIS's batch formation).
          if (!tiers.isDeferred(next.spec.index)) {
            if (run.length === 0) this.releaseQueuedReservation(next, now);
            break;
          }
          qi++;
          continue;
        }
        startBlocks = recompute ? gpuCached : cached;
      }
      const cachedTokens = startBlocks * bs;
      let n = next.inputTokens - cachedTokens;
      if (cfg.longPrefillTokenThreshold > 0 && cfg.longPrefillTokenThreshold < n) n = cfg.longPrefillTokenThreshold;
      if (n > budget) n = budget;
      const owner = this.freeOwners.length > 0 ? this.freeOwners[this.freeOwners.length - 1] : this.nextOwner;
      if (!(startBlocks === cached ? this.kv.allocate(owner, n, hashes, cached, true) : this.allocateRecomputed(owner, cachedTokens + n, hashes, cached))) {
        if (tiers !== undefined && tiers.lastReloaded === 0) tiers.allocationFailed();
        // With KV tiers the admission had side effects (fetches): the next step tries again.
        if (run.length === 0 && this.releaseQueuedReservation(next, now) && tiers === undefined) continue;
        break;
      }
      if (owner === this.nextOwner) this.nextOwner++;
      else this.freeOwners.pop();
      next.kvOwner = owner;
      if (qi === 0) this.waitQueue.popFront();
      else this.waitQueue.remove(next);
      next.state = RequestState.Running;
      next.scheduledAt = now;
      if (next.firstScheduledAt < 0) next.firstScheduledAt = now;
      next.cacheHitBlocks = cached;
      next.cachedTokens = cachedTokens;
      next.progress = cachedTokens;
      run.push(next, n);
      if (n > 0) this.addPrefill(cfg.prefixHitPrefillStart === 'zero' ? 0 : cachedTokens, n, next.inputTokens);
      budget -= n;
      this.hooks.onScheduled?.(next, now, cfg.index);
    }

    // A victim preempted ahead of the request being served (priority preemption) may already
    // be in the batch: compose it again from the survivors. Preemption is rare, steps are not.
    if (preempted) this.recomposeBatch();
    batch.decodeTokens = batch.decodeCount;
    if (inBulk > 0) {
      let sum = bulk!.contexts;
      for (let i = inBulk; i < batch.decodeCount; i++) sum += batch.decodeContext[i];
      batch.decodeContextSum = sum;
    } else batch.decodeContextSum = -1;

    let stepTime = cfg.latency.stepTime(batch);
    if (tiers !== undefined) {
      // Reloads are charged to the step that made them; an idle poll step still takes time.
      stepTime = Math.max(1, stepTime + tiers.consumeTransferLatency());
      // Copies the running requests' hashed blocks to the CPU tier, after the batch is final
      // and before completions free them (BLIS's MirrorToCPU).
      tiers.mirror(run, now);
    }
    const end = now + stepTime;
    this.hooks.onStep?.(now, stepTime, batch, cfg.index);
    if (this.decodeStarts.length > 0) {
      for (const r of this.decodeStarts) this.firstToken(r, end);
      this.decodeStarts.length = 0;
    }

    // Every decoding request of a step sees the same inter-token latency: count it once per step.
    const itl = stepTime + this.alpha2;
    if (batch.decodeCount > 0) {
      const entries = this.metrics.itlEntries;
      entries.set(itl, (entries.get(itl) ?? 0) + batch.decodeCount);
    }
    const used = this.kv.usedBlocks;
    this.metrics.kvBlockUs += used * stepTime;
    if (used > this.metrics.peakKVBlocks) this.metrics.peakKVBlocks = used;

    // ---- Execute, then retire completions (their KV is released at the end of the step).
    // Clearing the grants here readies the survivors for the next step's phase 1.
    const progress = run.progress;
    const input = run.inputTokens;
    const granted = run.granted;
    this.stepEnd = end;
    this.doneCount = 0;
    if (inBulk > 0) bulk!.settle(itl, this.completeAt);
    let done = this.doneCount;
    const n = run.length;
    for (let i = inBulk; i < n; i++) {
      const g = granted[i];
      if (g > 0) {
        granted[i] = 0;
        if (progress[i] < input[i]) {
          progress[i] += g;
          if (progress[i] === input[i]) this.firstToken(run.reqs[i], end);
        } else {
          progress[i] += 1;
          run.itlSum[i] += itl;
        }
      } else if (progress[i] >= input[i]) {
        // Fully cached prompt admitted this step: its prefill is complete on arrival in the batch.
        const r = run.reqs[i];
        if (r.ttft < 0 && r.scheduledAt === now) this.firstToken(r, end);
      }
      if (progress[i] === run.finalProgress[i]) {
        run.writeBack(i);
        this.complete(run.reqs[i], end);
        if (done === this.completedAt.length) this.growCompletedAt();
        this.completedAt[done++] = i;
      }
    }
    if (done > 0) run.removeSorted(this.completedAt, done);
    bulk?.adopt();

    this.metrics.busyUs += stepTime;
    this.lastBusyUntil = end;
    if (this.config.checkInvariants) {
      this.kv.checkConsistency();
      this.kvTiers?.checkConsistency();
    }

    // ---- Next step: back to back while work remains.
    if (run.length > 0 || this.waitQueue.length > 0) {
      this.events.push(end, this.clsStep, EventKind.Step, -1);
    } else {
      this.stepPending = false;
    }
  }

  /**
   * Admits a decode part holding its transferred prompt KV: one decode token this step (BLIS's
   * decode-only path in FormBatch). Its first decode step ends with the parent's first token.
   */
  private admitTransferred(next: SimRequest, qi: number, now: number): boolean {
    if (!this.kv.allocate(next.kvOwner, 1, next.blockHashes, 0, false)) return false;
    if (qi === 0) this.waitQueue.popFront();
    else this.waitQueue.remove(next);
    next.state = RequestState.Running;
    next.scheduledAt = now;
    if (next.firstScheduledAt < 0) next.firstScheduledAt = now;
    next.cacheHitBlocks = 0;
    next.cachedTokens = 0;
    const run = this.run;
    run.push(next, 1);
    run.kvRoom[run.length - 1] = this.kv.deferrableTokens(next.kvOwner, next.blockHashes);
    this.batch.decodeContext[this.batch.decodeCount++] = next.progress;
    this.decodeStarts.push(next);
    this.hooks.onScheduled?.(next, now, this.config.index);
    return true;
  }

  /**
   * P/D: decode parts waiting in the queue hold the KV transferred to them. When they hold so
   * much of the cache that nothing would run (the head of the queue cannot start with nothing
   * running, or the only running request would evict itself), no step would ever free a block
   * and the instance would spin for ever (BLIS does): the youngest of them gives its KV back and
   * will be prefilled again on this pod, as a preempted decode part is (vLLM's recompute
   * preemption). `spare` (the request being served) goes last, and only if it is queued.
   * False when no queued request holds KV.
   */
  private releaseQueuedReservation(spare: SimRequest, now: number): boolean {
    const q = this.waitQueue;
    let victim: SimRequest | undefined;
    for (let i = q.length - 1; i >= 0 && victim === undefined; i--) {
      const r = q.at(i);
      if (r.kvOwner >= 0 && r !== spare) victim = r;
    }
    if (victim === undefined && spare.kvOwner >= 0 && spare.state === RequestState.Queued) victim = spare;
    if (victim === undefined) return false;
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
  private allocateRecomputed(owner: number, end: number, hashes: ArrayLike<number>, cached: number): boolean {
    const bs = this.config.blockSizeTokens;
    if (cached * bs >= end) return this.kv.allocate(owner, 0, hashes, Math.min(Math.ceil(end / bs), cached), true);
    return this.kv.allocate(owner, end - cached * bs, hashes, cached, true);
  }

  private growCompletedAt(): void {
    const next = new Int32Array(this.completedAt.length * 2);
    next.set(this.completedAt);
    this.completedAt = next;
  }

  /** Appends a prefill chunk of `n` tokens starting at context position `start` of an `input`-token prompt. */
  private addPrefill(start: number, n: number, input: number): void {
    const batch = this.batch;
    batch.prefillNewTokens[batch.prefillCount] = n;
    batch.prefillContextStart[batch.prefillCount] = start;
    batch.prefillInputTokens[batch.prefillCount] = input;
    batch.prefillCount++;
    batch.prefillTokens += n;
  }

  /** Composes the batch from scratch out of the running requests' grants (before execution). */
  private recomposeBatch(): void {
    const batch = this.batch;
    batch.prefillTokens = 0;
    batch.prefillCount = 0;
    batch.decodeCount = 0;
    const run = this.run;
    for (let i = 0; i < run.length; i++) {
      const g = run.granted[i];
      if (g === 0) continue;
      if (run.progress[i] < run.inputTokens[i]) this.addPrefill(run.progress[i], g, run.inputTokens[i]);
      else batch.decodeContext[batch.decodeCount++] = run.progress[i];
    }
  }

  /**
   * Allocates KV for `req`, evicting running requests (newest first, or least urgent) until it
   * fits. Returns a bit set: {@link PREEMPTED} when anything was evicted, {@link FAILED} when
   * `req` cannot be scheduled this step (no victims left, or `req` itself was evicted).
   */
  private allocateOrPreempt(req: SimRequest, idx: number, n: number, prefill: boolean, now: number, alreadyFailed = false): number {
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
  private appendDecodeToken(i: number): boolean {
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
    if (!this.kv.allocate(owner, run.kvDeferred[i] + 1, hashes, 0, false)) return false;
    run.kvDeferred[i] = 0;
    run.kvRoom[i] = this.kv.deferrableTokens(owner, hashes);
    return true;
  }

  private pickVictim(now: number): number {
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
  private takeRefund(): number {
    const r = this.refund;
    this.refund = 0;
    return r;
  }

  /** Evicts the running request at position `i` back to the head of the wait queue. */
  private preempt(i: number, now: number): void {
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
    this.releaseKV(victim);
    this.waitQueue.pushFront(victim);
    this.hooks.onPreempted?.(victim, now, this.config.index);
  }

  private firstToken(r: SimRequest, stepEnd: number): void {
    if (r.ttft >= 0) return; // a preempted request keeps the first token the user already saw
    r.firstTokenAt = stepEnd + this.alpha2;
    r.ttft = r.firstTokenAt - r.spec.arrivalUs;
  }

  /** Frees the request's KV blocks and its owner id (the next admission reuses it). */
  private releaseKV(r: SimRequest): void {
    this.kv.release(r.kvOwner);
    this.freeOwners.push(r.kvOwner);
    r.kvOwner = -1;
  }

  private complete(r: SimRequest, stepEnd: number): void {
    this.releaseKV(r);
    r.state = RequestState.Completed;
    r.completedAt = stepEnd;
    // BLIS reports E2E = TTFT + sum(ITL). After a preemption it drops the ITLs it had seen,
    // which understates E2E; for those requests we report the real completion time instead.
    // A completion overhead (trained-physics alpha1) lengthens E2E only, not the clock.
    const post = r.outputTokens > 0 ? this.config.latency.postDecodeFixedOverhead() : 0;
    // A decode part's first token came out of its first decode step, whose ITL is in itlSum:
    // its E2E runs from arrival to its scheduling plus its ITLs (BLIS's decDelay + E2E_dec).
    // One that gave its transferred KV back before running (a preemption, see
    // releaseQueuedReservation) got its first token from a prefill here, as a whole request does.
    const e2e =
      (r.preemptedAfterFirstToken
        ? stepEnd + this.alpha2 * (1 + r.itlCount) - r.spec.arrivalUs
        : r.part === RequestPart.Decode && r.preemptions === 0
          ? r.scheduledAt - r.spec.arrivalUs + r.itlSum
          : r.ttft + r.itlSum) + post;
    if (this.config.checkInvariants) {
      const arr = r.spec.arrivalUs;
      const sched = r.firstScheduledAt;
      if (!(arr <= r.enqueuedAt && r.enqueuedAt <= sched && sched < r.firstTokenAt && r.firstTokenAt <= r.completedAt + this.alpha2))
        throw new InvariantViolation(
          'INV-5',
          `request ${r.spec.id}: arrival ${arr}, enqueue ${r.enqueuedAt}, schedule ${sched}, first token ${r.firstTokenAt}, completion ${r.completedAt}`,
        );
    }
    this.metrics.recordCompletion(r, e2e);
    this.hooks.onCompleted(r, stepEnd);
  }

  private prepareWaitQueue(now: number): void {
    if (this.waitQueue.length === 0) return;
    const pri = this.config.priority;
    if (pri?.timeDependent) {
      const q = this.waitQueue;
      for (let i = 0; i < q.length; i++) {
        const r = q.at(i);
        if (!r.priorityHinted) r.view.priority = pri.priority(r.view, now);
      }
    }
    if (this.compareFn !== undefined) {
      this.schedCtx.nowUs = now;
      this.schedCtx.queueDepth = this.waitQueue.length;
      this.schedCtx.batchSize = this.running.length;
      this.waitQueue.sort(this.compareFn);
    }
  }

  private checkWorkConservation(): void {
    if (this.waitQueue.length > 0 && !this.stepPending)
      throw new InvariantViolation('INV-8', `instance ${this.config.id} has ${this.waitQueue.length} queued requests and no step scheduled`);
  }
}
