import { KVCache, type KVTiers, createKVTiers } from '@blis/kvcache';
import type { StepBatch } from '@blis/latency';
import { createStepBatch } from '@blis/latency/internal';
import type { SchedulerContext, SchedulerEntry } from '@blis/policies';
import { BulkDecode } from './bulk-decode.js';
import type { EventQueue } from './event-queue.js';
import { EventKind, instanceClass } from './event-kinds.js';
import type { InstanceConfig } from './instance-config.js';
import type { InstanceHooks } from './instance-hooks.js';
import { InstanceMetrics } from './instance-metrics.js';
import { InvariantViolation } from './invariant-error.js';
import { InstanceLora } from './lora/instance-lora.js';
import { RequestPart, RequestState, type SimRequest } from './request.js';
import { RunningBatch } from './running-batch.js';
import { WaitQueue } from './wait-queue.js';

/**
 * What an instance holds (wait queue, running batch, KV cache and tiers, latency model,
 * counters) and how a request leaves it: its first token, its completion, its KV given back.
 * The layers above add preemption (instance-preemption.ts), the step (instance-step.ts) and the
 * events and public surface (instance-simulator.ts).
 */
export abstract class InstanceState {
  readonly config: InstanceConfig;
  readonly kv: KVCache;
  /** The CPU tier or offload chain behind {@link kv}, when configured. */
  readonly kvTiers: KVTiers | undefined;
  readonly metrics = new InstanceMetrics();
  readonly waitQueue = new WaitQueue();
  /** Resident adapters, the load in flight and per-adapter counters; absent when no LoRA adapters are served. */
  readonly lora: InstanceLora | undefined;
  /**
   * Running requests in admission order, with their per-step counters.
   * @hidden the engine's own bookkeeping, not part of the public surface
   */
  protected readonly run: RunningBatch;

  protected readonly events: EventQueue;
  protected readonly lookup: (slot: number) => SimRequest | undefined;
  protected readonly hooks: InstanceHooks;
  protected readonly batch: StepBatch;
  protected readonly alpha2: number;
  protected readonly clsQueued: number;
  protected readonly clsStep: number;
  protected readonly clsTimeout: number;
  protected readonly clsAdapterLoaded: number;
  /** Requests at the batch's head advanced in bulk this step (each granted a decode token). */
  protected loraInBulk = 0;
  /** The adapter of the running request at `i` if it was granted tokens this step, else -1. */
  protected readonly scheduledAdapterAt = (i: number): number => {
    const run = this.run;
    return i < this.loraInBulk || run.granted[i] > 0 ? run.reqs[i].adapter : -1;
  };
  protected stepPending = false;
  /**
   * KV owner ids of requests that left, reused last-in first-out: ids stay below the batch
   * size, so the cache's owner table stays small and warm.
   */
  protected readonly freeOwners: number[] = [];
  protected nextOwner = 0;
  /** Scratch: batch positions completed in the current step. */
  protected completedAt = new Int32Array(16);
  protected refund = 0;
  protected enqueueSeq = 0;
  /** Decode parts admitted this step: their first decode step ends with their first token. */
  protected readonly decodeStarts: SimRequest[] = [];
  /** End tick of the last step, the latest moment this instance did anything. */
  lastBusyUntil = -0; // a double from the start (see EventQueue.poppedTime)
  /**
   * The latest tick of a Queued event this instance scheduled (-Infinity: none yet): one at or
   * after the host's clock may still be pending, so the host bounds quiet steps by it.
   * @hidden the cluster's bookkeeping, not part of the public surface
   */
  lastQueuedDueUs = Number.NEGATIVE_INFINITY;
  protected readonly schedCtx: { nowUs: number; instanceIndex: number; queueDepth: number; batchSize: number };
  protected readonly compareFn: ((a: SimRequest, b: SimRequest) => number) | undefined;
  protected readonly maxTokensPerRequest: number;
  /**
   * Plain decode advanced in bulk; absent in the reference (step-by-step) engine.
   * @hidden the engine's own bookkeeping, not part of the public surface
   */
  protected readonly bulk: BulkDecode | undefined;
  /**
   * Requests routed here defer their own blocks' registration (SimRequest.deferOwnBlocks). Not
   * with a KV tier, which offloads every evicted hash (a deferred one would take no tier room),
   * nor in the reference engine, which keeps the plain rule: a block is registered as it fills.
   */
  protected readonly defersOwnBlocks: boolean;
  /** Bulk steps fill the batch's per-request decode contexts only for a reader of them. */
  protected readonly fillContexts: boolean;
  /** The latency model reads the decode contexts' sum: every step gives it (see InstanceStep.step). */
  protected readonly sumsContexts: boolean;
  protected readonly completeAt = (pos: number): void => {
    this.run.writeBack(pos);
    this.complete(this.run.reqs[pos], this.stepEnd);
    if (this.doneCount === this.completedAt.length) this.growCompletedAt();
    this.completedAt[this.doneCount++] = pos;
  };
  protected stepEnd = -0; // a double from the start (see EventQueue.poppedTime)
  protected doneCount = 0;

  /**
   * `lookup` gives the live request in a slot of the driver's request table; for a slot with
   * none it returns undefined (or throws), which only a deadline that outlived its request asks.
   */
  constructor(config: InstanceConfig, events: EventQueue, lookup: (slot: number) => SimRequest | undefined, hooks: InstanceHooks) {
    this.config = config;
    this.events = events;
    this.lookup = lookup;
    this.hooks = hooks;
    this.kv = new KVCache({ totalBlocks: config.totalKVBlocks, blockSizeTokens: config.blockSizeTokens });
    this.kvTiers = config.kvTiers === undefined ? undefined : createKVTiers(config.kvTiers, this.kv, { normal: config.kvTierNormal });
    this.lora = config.lora === undefined ? undefined : new InstanceLora(config.lora);
    this.batch = createStepBatch(Math.max(16, config.maxNumSeqs));
    this.run = new RunningBatch(Math.max(16, config.maxNumSeqs));
    this.alpha2 = config.latency.outputTokenTime();
    this.clsQueued = instanceClass(config.index, EventKind.Queued);
    this.clsStep = instanceClass(config.index, EventKind.Step);
    this.clsTimeout = instanceClass(config.index, EventKind.Timeout);
    this.clsAdapterLoaded = instanceClass(config.index, EventKind.AdapterLoaded);
    this.maxTokensPerRequest = config.totalKVBlocks * config.blockSizeTokens;
    this.schedCtx = { nowUs: 0, instanceIndex: config.index, queueDepth: 0, batchSize: 0 };
    // Bulk decode needs integer ITLs (exact sums) from a model that says what it reads, and no
    // KV tier (its mirror walks the batch every step).
    const inputs = config.latency.decodeInputs;
    this.bulk = config.stepByStep !== true && this.kvTiers === undefined && inputs !== undefined && Number.isInteger(this.alpha2) ? new BulkDecode(this.run, this.kv) : undefined;
    this.defersOwnBlocks = config.stepByStep !== true && this.kvTiers === undefined;
    this.fillContexts = inputs !== 'count' && inputs !== 'sum' || hooks.onStep !== undefined;
    this.sumsContexts = inputs === 'sum';
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

  /**
   * Registers the own blocks a request deferred (SimRequest.deferOwnBlocks) before a preemption
   * frees them: it will be admitted here again, and may hit them. From then on it registers
   * every block as it fills.
   */
  protected registerOwnBlocks(r: SimRequest): void {
    if (r.blockHashes === r.allBlockHashes) return;
    this.kv.registerHeld(r.kvOwner, r.allBlockHashes);
    r.blockHashes = r.allBlockHashes;
  }

  /** Frees the request's KV blocks and its owner id (the next admission reuses it). */
  protected releaseKV(r: SimRequest): void {
    this.kv.release(r.kvOwner);
    this.freeOwners.push(r.kvOwner);
    r.kvOwner = -1;
  }

  protected firstToken(r: SimRequest, stepEnd: number): void {
    if (r.ttft >= 0) return; // a preempted request keeps the first token the user already saw
    r.firstTokenAt = stepEnd + this.alpha2;
    r.ttft = r.firstTokenAt - r.spec.arrivalUs;
  }

  /** A request leaves for good: its adapter may be evicted again once no other request uses it. */
  protected releaseAdapter(r: SimRequest): void {
    if (!r.adapterPinned) return;
    this.lora!.resident.unpin(r.adapter);
    r.adapterPinned = false;
  }

  protected complete(r: SimRequest, stepEnd: number): void {
    this.releaseKV(r);
    if (r.adapterPinned) this.releaseAdapter(r);
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

  protected growCompletedAt(): void {
    const next = new Int32Array(this.completedAt.length * 2);
    next.set(this.completedAt);
    this.completedAt = next;
  }

  protected checkWorkConservation(): void {
    // A queue held behind an adapter load waits for the load's completion, which schedules a step.
    if (this.waitQueue.length > 0 && !this.stepPending && (this.lora === undefined || this.lora.loading < 0))
      throw new InvariantViolation('INV-8', `instance ${this.config.id} has ${this.waitQueue.length} queued requests and no step scheduled`);
  }
}
