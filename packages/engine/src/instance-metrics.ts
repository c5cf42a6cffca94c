import { GrowableFloat64 } from './growable-array.js';
import { ItlHistogram } from './itl-histogram.js';
import type { SimRequest } from './request.js';

/**
 * Per-instance outcome records, one row per completed request, kept as columns of typed
 * arrays so a million completions cost tens of megabytes, not gigabytes of objects.
 */
export class InstanceMetrics {
  readonly ttftUs: GrowableFloat64;
  readonly e2eUs: GrowableFloat64;
  /** Per-request mean ITL in µs (sum / max(output - 1, 1)). */
  readonly itlUs: GrowableFloat64;
  readonly schedulingDelayUs: GrowableFloat64;
  /** Index of the request (RequestSpec.index) for each row. */
  readonly requestIndex: GrowableFloat64;
  readonly arrivalUs: GrowableFloat64;
  readonly completionUs: GrowableFloat64;
  readonly inputTokens: GrowableFloat64;
  readonly outputTokens: GrowableFloat64;
  readonly cacheHitBlocks: GrowableFloat64;

  constructor() {
    // One buffer for the columns' first rows: they fill together, a row per completion.
    const c = GrowableFloat64.columns(10);
    this.ttftUs = c[0];
    this.e2eUs = c[1];
    this.itlUs = c[2];
    this.schedulingDelayUs = c[3];
    this.requestIndex = c[4];
    this.arrivalUs = c[5];
    this.completionUs = c[6];
    this.inputTokens = c[7];
    this.outputTokens = c[8];
    this.cacheHitBlocks = c[9];
  }
  /**
   * Every individual ITL entry, as value (µs) -> occurrences, counted when the step runs (so it
   * includes tokens of requests later preempted or cut off by the horizon). Keys in order of
   * first occurrence. A snapshot: built from the counts on read, again after the next step.
   */
  get itlEntries(): Map<number, number> {
    return this.itl.toMap();
  }

  private readonly itl = new ItlHistogram();

  completed = 0;
  dropped = 0;
  timedOut = 0;
  preemptions = 0;
  totalInputTokens = 0;
  totalOutputTokens = 0;
  /**
   * KV allocations that failed while forming a batch: each one evicted a running request or
   * left the request unscheduled for the step. (Not BLIS's `kv_allocation_failures`, which
   * counts failures of an allocation at completion that this engine never makes.)
   */
  batchKvAllocationFailures = 0;
  steps = 0;
  busyUs = -0; // a double from the start (see EventQueue.poppedTime)
  /** Time-weighted KV blocks in use (block·µs), for mean utilisation. */
  kvBlockUs = -0; // a double from the start (see EventQueue.poppedTime)
  peakKVBlocks = 0;

  /** Counts `count` (> 0) ITL entries of `itl` µs (one step's decoding requests). */
  addItl(itl: number, count: number): void {
    this.itl.add(itl, count);
  }

  recordCompletion(r: SimRequest, e2e: number): void {
    this.completed++;
    this.totalOutputTokens += r.outputTokens;
    this.ttftUs.push(r.ttft);
    this.e2eUs.push(e2e);
    this.itlUs.push(r.itlSum / Math.max(r.outputTokens - 1, 1));
    this.schedulingDelayUs.push(r.scheduledAt - r.spec.arrivalUs);
    this.requestIndex.push(r.spec.index);
    this.arrivalUs.push(r.spec.arrivalUs);
    this.completionUs.push(r.completedAt);
    this.inputTokens.push(r.inputTokens);
    this.outputTokens.push(r.outputTokens);
    this.cacheHitBlocks.push(r.cacheHitBlocks);
  }
}
