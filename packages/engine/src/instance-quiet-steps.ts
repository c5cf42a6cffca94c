import { InstancePreemption } from './instance-preemption.js';
import { InvariantViolation } from './invariant-error.js';

/**
 * Quiet steps taken without the event queue (issue #37).
 *
 * A step is quiet when every running request is in bulk decode (bulk-decode.ts) within the
 * token budget, none completes in it, every KV block it opens is free, and the wait queue is
 * empty. Such a step changes nothing but this instance's counters, clock and KV cache, and
 * nothing outside reads those between two of the host's events (routers, gateways, time series
 * and autoscalers all read at events). So the step that ends an event-driven step takes the
 * quiet steps after it in a loop, while each starts strictly before the host's next event that
 * could reach this instance ({@link InstanceHooks.quietBoundUs}: in a cluster whose arrivals are
 * open-loop, other instances' steps cannot), and schedules as an event only the step it stops
 * before, at that step's own time. A run stops before the first step in which a request
 * completes (its completion reaches the host: routers, sessions, the autoscaler).
 *
 * A quiet step does what the event-driven step does for it: the step count, busy time,
 * block-µs and peak blocks, the ITL histogram (one `addItl` per step, same value and count),
 * the bulk clocks (steps, ITL sum, context sum), the latency model's step time from the same
 * batch (decode count, context sum, and each context for a model that reads them), and, for a
 * step where blocks open, BulkDecode's own begin/grant/settle, which allocate them in running
 * order. Step times and ITLs are integers (bulk decode's premise), so every sum is the one the
 * step-by-step order makes.
 *
 * Runs only where nothing watches single steps: no `onStep` hook, no KV tiers (bulk decode is
 * off with them), no LoRA (adapter loads and per-step scaling), no engine invariant checks
 * (per event), and a host that gives its bound. Elsewhere every step is an event, as before.
 */
export abstract class InstanceQuietSteps extends InstancePreemption {
  /**
   * Start of the last step taken in a quiet run (-0 before any): a host that notes the start
   * of every instance event reads it after handling one. A double from the start (see
   * EventQueue.poppedTime).
   */
  lastQuietStepUs = -0;
  /** The host's next event, when quiet runs may happen here at all (decided once). */
  protected readonly quietBound: (() => number) | undefined =
    this.bulk !== undefined && this.lora === undefined && this.kvTiers === undefined && this.hooks.onStep === undefined && !this.config.checkInvariants
      ? this.hooks.quietBoundUs?.bind(this.hooks)
      : undefined;

  /**
   * The step just taken ends at `start`, with the whole batch in bulk decode, within the token
   * budget, and the wait queue empty. Takes the quiet steps from `start` on that begin before
   * the host's next event and before the next completion; returns the start of the step after
   * them, to be scheduled as an event.
   */
  protected quietRun(start: number): number {
    const bound = this.quietBound!();
    if (start >= bound) return start;
    const bulk = this.bulk!;
    let ahead = bulk.stepsBeforeCompletion();
    if (ahead <= 0) return start;
    const n = this.run.length;
    const batch = this.batch;
    const metrics = this.metrics;
    const kv = this.kv;
    const latency = this.config.latency;
    const budget = this.config.maxNumBatchedTokens;
    const alpha2 = this.alpha2;
    const fill = this.fillContexts;
    batch.prefillTokens = 0;
    batch.prefillCount = 0;
    batch.decodeCount = n;
    batch.decodeTokens = n;
    let now = start;
    let last = start;
    while (ahead > 0 && now < bound) {
      const due = bulk.dueNext();
      if (due > 0) {
        // Blocks open: a bulk step as the event-driven one takes it, when every block is free.
        if (due > kv.freeBlocks) break;
        if (!bulk.begin(budget)) throw new InvariantViolation('INV-4', `instance ${this.config.id}: a quiet step could not be taken in bulk`);
        bulk.grant(batch, fill);
      } else if (fill) bulk.fillContexts(batch.decodeContext);
      batch.decodeContextSum = bulk.contexts;
      const stepTime = latency.stepTime(batch);
      const itl = stepTime + alpha2;
      metrics.steps++;
      metrics.addItl(itl, n);
      const used = kv.usedBlocks;
      metrics.kvBlockUs += used * stepTime;
      if (used > metrics.peakKVBlocks) metrics.peakKVBlocks = used;
      metrics.busyUs += stepTime;
      if (due > 0) bulk.settle(itl, this.completeAt);
      else bulk.quietStep(itl);
      last = now;
      now += stepTime;
      ahead--;
    }
    if (now > start) {
      this.lastQuietStepUs = last;
      this.lastBusyUntil = now;
      this.stepEnd = now;
    }
    return now;
  }
}
