import type { ModalityTokens, RequestView } from '@blis/policies';
import type { RequestSpec } from './request-spec.js';

/** Lifecycle states (INV-2: queued -> running -> completed; preemption returns to queued). */
export const RequestState = {
  Pending: 0,
  Queued: 1,
  Running: 2,
  Completed: 3,
  Dropped: 4,
  Rejected: 5,
  TimedOut: 6,
} as const;
export type RequestStateValue = (typeof RequestState)[keyof typeof RequestState];

/**
 * Which part of a request a SimRequest is: the whole request, or under P/D disaggregation its
 * prefill part (no output tokens: it completes when the prompt is processed) or its decode part
 * (created when the prompt's KV starts moving to the decode pod).
 */
export const RequestPart = { Whole: 0, Prefill: 1, Decode: 2 } as const;
export type RequestPartValue = (typeof RequestPart)[keyof typeof RequestPart];

/**
 * The policy-facing face of a request. A separate object from {@link SimRequest} so that a
 * policy holding it cannot reach the output length, even with a cast (INV-9).
 */
export class RequestViewRecord implements RequestView {
  readonly index: number;
  readonly id: string;
  readonly arrivalUs: number;
  readonly inputTokens: number;
  readonly clientId: string;
  readonly tenantId: string;
  readonly sloClass: string;
  readonly sessionId: string;
  readonly roundIndex: number;
  readonly prefixGroup: string;
  readonly streaming: boolean;
  readonly blockHashes: ArrayLike<number>;
  readonly sharedPrefixBlocks: number | undefined;
  readonly sloTargetUs: number;
  readonly adapter: string;
  readonly modalities: ModalityTokens | undefined;
  priority = 0;

  constructor(spec: RequestSpec) {
    this.index = spec.index;
    this.id = spec.id;
    this.arrivalUs = spec.arrivalUs;
    this.inputTokens = spec.inputTokens;
    this.clientId = spec.clientId;
    this.tenantId = spec.tenantId;
    this.sloClass = spec.sloClass;
    this.sessionId = spec.sessionId;
    this.roundIndex = spec.roundIndex;
    this.prefixGroup = spec.prefixGroup;
    this.streaming = spec.streaming;
    this.blockHashes = spec.blockHashes;
    this.sharedPrefixBlocks = spec.sharedPrefixBlocks;
    this.sloTargetUs = spec.sloTargetUs;
    this.adapter = spec.adapter ?? '';
    this.modalities = spec.modalities;
  }
}

/** The hashes of a request none of whose blocks are shared (see {@link SimRequest.deferOwnBlocks}). */
const NO_OWN_HASHES: ArrayLike<number> = new Float64Array(0);

/** A request in flight, with everything the engine tracks about it. */
export class SimRequest {
  readonly spec: RequestSpec;
  readonly view: RequestViewRecord;
  /** Slot in the driver's request table. */
  readonly slot: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /**
   * The hashes the KV cache registers blocks under: spec.kvBlockHashes when given (generated
   * blocks too), else the prompt's. Kept here to spare the hot loop a load. While the request's
   * own blocks are deferred (see {@link deferOwnBlocks}), only its shared leading ones.
   */
  blockHashes: ArrayLike<number>;
  /** Every hash the KV cache may register the request's blocks under (what {@link blockHashes} starts as). */
  readonly allBlockHashes: ArrayLike<number>;
  /**
   * Progress at completion: the prompt plus every generated token but the last. A decode part
   * starts at the end of the prompt and runs max(1, output - 1) decode steps (BLIS).
   */
  readonly finalProgress: number;
  readonly part: RequestPartValue;

  state: RequestStateValue = RequestState.Pending;
  instance = -1;
  /**
   * Tokens processed: prompt tokens during prefill, then one per decode step. While the request
   * runs, its instance's RunningBatch holds the live count; this is set when it leaves.
   */
  progress = 0;
  /** Owner id in its instance's KV cache while it holds blocks there, else -1. */
  kvOwner = -1;
  /** Cached prompt tokens claimed at admission this step. */
  cachedTokens = 0;
  /** Monotone sequence of entry into the current instance's wait queue. */
  enqueueSeq = 0;
  /**
   * True once a router's priority hint set `view.priority`: the engine then never re-scores it
   * with the priority policy (the hint holds for the rest of the request's life).
   */
  priorityHinted = false;

  // The times below are -1 until set, but start as -0 (the constructor sets them to -1) so that
  // V8 gives them a double's representation from the start (see EventQueue.poppedTime).
  routedAt = -0;
  enqueuedAt = -0;
  /** Start tick of the step that (last) admitted the request. */
  scheduledAt = -0;
  /** Start tick of the step that first admitted the request (before any preemption). */
  firstScheduledAt = -0;
  /** Absolute tick at which the first token became visible (step end + alpha2). */
  firstTokenAt = -0;
  ttft = -0;
  /** Sum and count of ITL entries of the current attempt (cleared on preemption, as BLIS does). */
  itlSum = -0; // a double from the start (see EventQueue.poppedTime)
  itlCount = 0;
  preemptions = 0;
  preemptedAfterFirstToken = false;
  /** Registry index of its LoRA adapter on the instance serving it; -1 = base model (or LoRA off). */
  adapter = -1;
  /** Whether it holds a pin on its adapter (taken at its first admission, kept through preemption). */
  adapterPinned = false;
  /** Blocks found in the prefix cache at the (last) admission. */
  cacheHitBlocks = 0;
  completedAt = -0;

  constructor(spec: RequestSpec, slot: number, part: RequestPartValue = RequestPart.Whole) {
    this.spec = spec;
    this.view = new RequestViewRecord(spec);
    this.slot = slot;
    this.part = part;
    this.inputTokens = spec.inputTokens;
    this.outputTokens = spec.outputTokens;
    this.allBlockHashes = spec.kvBlockHashes ?? spec.blockHashes;
    this.blockHashes = this.allBlockHashes;
    this.finalProgress =
      part === RequestPart.Decode ? spec.inputTokens + Math.max(spec.outputTokens - 1, 1) : spec.inputTokens + Math.max(spec.outputTokens, 1) - 1;
    this.routedAt = this.enqueuedAt = this.scheduledAt = this.firstScheduledAt = this.firstTokenAt = this.ttft = this.completedAt = -1;
  }

  /**
   * Leaves the request's own blocks (past `spec.sharedPrefixBlocks`) out of the prefix index
   * while it runs on the instance it was just routed to. No other request carries them and no
   * cache holds them yet, so the index needs them only if this request is admitted there again
   * after a preemption, and the instance registers them all when it preempts the request
   * (`InstanceState.registerOwnBlocks`): the cache then holds exactly what it would have held
   * had they been registered as they filled. A request that completes, times out or leaves
   * never costs its own blocks an index entry, an eviction or a record. Only a whole request
   * (under P/D a pod may serve both parts of one request) whose answer is its own (a session
   * round with `kvBlockHashes` registers its answer's blocks for the next round).
   */
  deferOwnBlocks(): void {
    const spec = this.spec;
    const shared = spec.sharedPrefixBlocks;
    const all = this.allBlockHashes;
    if (this.part !== RequestPart.Whole || shared === undefined || shared >= spec.blockHashes.length || spec.kvBlockHashes !== undefined || !(all instanceof Float64Array)) return;
    this.blockHashes = shared === 0 ? NO_OWN_HASHES : all.subarray(0, shared);
  }

  /** Decode steps after the prefill until the request is complete. */
  get decodeStepsNeeded(): number {
    return this.finalProgress - this.inputTokens;
  }

  get inPrefill(): boolean {
    return this.progress < this.inputTokens;
  }
}
