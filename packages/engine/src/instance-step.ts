import { DEFERRED } from '@blis/kvcache';
import { FAILED, PREEMPTED } from './instance-preemption.js';
import { InstanceQuietSteps } from './instance-quiet-steps.js';
import { EventKind } from './event-kinds.js';
import { RequestState, type SimRequest } from './request.js';

/**
 * The step: form the batch (running requests first, then admissions from the wait queue),
 * execute it, retire completions, schedule the next step. Plain decode goes in bulk unless the
 * engine is the reference one (bulk-decode.ts).
 */
export abstract class InstanceStep extends InstanceQuietSteps {

  protected step(now: number): void {
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
    const lora = this.lora;
    if (lora !== undefined && lora.loading < 0 && this.waitQueue.length > 0) this.startAdapterLoad(now);

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
      // A request whose adapter is not resident waits for its load, and so does everything
      // behind it (BLIS's head-of-line gate).
      if (lora !== undefined && next.adapter >= 0 && !lora.isResident(next.adapter)) break;
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
      if (lora !== undefined && next.adapter >= 0) this.useAdapter(next);
      this.hooks.onScheduled?.(next, now, cfg.index);
    }

    // A victim preempted ahead of the request being served (priority preemption) may already
    // be in the batch: compose it again from the survivors. Preemption is rare, steps are not.
    if (preempted) this.recomposeBatch();
    batch.decodeTokens = batch.decodeCount;
    // A model that reads the sum always gets it from here: its own loop over the contexts would
    // first run in whichever step had no request in bulk, after the model was optimised without it.
    if (this.sumsContexts || inBulk > 0) {
      let sum = inBulk > 0 ? bulk!.contexts : 0;
      for (let i = inBulk; i < batch.decodeCount; i++) sum += batch.decodeContext[i];
      batch.decodeContextSum = sum;
    } else batch.decodeContextSum = -1;

    let stepTime = cfg.latency.stepTime(batch);
    if (lora !== undefined) {
      this.loraInBulk = inBulk;
      stepTime = lora.scaleStep(stepTime, run.length, this.scheduledAdapterAt);
    }
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
    if (batch.decodeCount > 0) this.metrics.addItl(itl, batch.decodeCount);
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
    // An idle instance whose queue waits for an adapter load steps again when the load completes.
    // The queue's length is read every step (`|`, not `||`): read only when the batch emptied,
    // which a busy instance first does late, it deoptimised the step there.
    if ((run.length | this.waitQueue.length) > 0 && (run.length > 0 || lora === undefined || lora.loading < 0)) {
      // Quiet steps after this one need no event (instance-quiet-steps.ts).
      const quiet = this.quietBound !== undefined && this.waitQueue.length === 0 && bulk!.count === run.length && run.length <= cfg.maxNumBatchedTokens;
      this.events.push(quiet ? this.quietRun(end) : end, this.clsStep, EventKind.Step, -1);
    } else {
      this.stepPending = false;
    }
  }

  /**
   * Admits a decode part holding its transferred prompt KV: one decode token this step (BLIS's
   * decode-only path in FormBatch). Its first decode step ends with the parent's first token.
   */
  protected admitTransferred(next: SimRequest, qi: number, now: number): boolean {
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
    if (this.lora !== undefined && next.adapter >= 0) this.useAdapter(next);
    this.hooks.onScheduled?.(next, now, this.config.index);
    return true;
  }

  /**
   * The queue's head needs an adapter that is not resident and no load is in flight: the load
   * starts now (evicting the least recently used unpinned adapter when the slots are full) and
   * completes in an event of its own. A head that only needs a pinned-full set to drain waits.
   */
  protected startAdapterLoad(now: number): void {
    const head = this.waitQueue.at(0);
    if (head.kvOwner >= 0 || head.adapter < 0) return;
    const ticks = this.lora!.startLoad(head.adapter);
    if (ticks > 0) this.events.push(now + ticks, this.clsAdapterLoaded, EventKind.AdapterLoaded, head.adapter);
  }

  /** An admitted request uses its adapter: most recently used, and pinned until it leaves (once). */
  protected useAdapter(r: SimRequest): void {
    const resident = this.lora!.resident;
    resident.touch(r.adapter);
    if (!r.adapterPinned && resident.pin(r.adapter)) r.adapterPinned = true;
  }

  /** Appends a prefill chunk of `n` tokens starting at context position `start` of an `input`-token prompt. */
  protected addPrefill(start: number, n: number, input: number): void {
    const batch = this.batch;
    batch.prefillNewTokens[batch.prefillCount] = n;
    batch.prefillContextStart[batch.prefillCount] = start;
    batch.prefillInputTokens[batch.prefillCount] = input;
    batch.prefillCount++;
    batch.prefillTokens += n;
  }

  /** Composes the batch from scratch out of the running requests' grants (before execution). */
  protected recomposeBatch(): void {
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

  protected prepareWaitQueue(now: number): void {
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
      this.schedCtx.batchSize = this.run.length;
      this.waitQueue.sort(this.compareFn);
    }
  }
}
