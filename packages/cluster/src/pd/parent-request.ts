import type { SimRequest } from '@blis/engine';

/**
 * A disaggregated request: the original (parent) request and what happened to its two parts.
 * Timestamps are µs, -1 until they happen. They satisfy INV-PD-4 on every completed parent:
 * arrival <= prefillEnqueue <= prefillComplete <= transferStart <= transferComplete <=
 * decodeEnqueue <= completion.
 */
export class ParentRequest {
  readonly parent: SimRequest;
  /** The decode pod chosen before the decider ran (decode-first). */
  readonly decodeInstance: number;
  /** ceil(prompt / block size): the blocks the transfer moves. */
  readonly numKVBlocks: number;
  prefillInstance = -1;
  // -1 until they happen, set so by the constructor: they start as -0, so that V8 gives them a
  // double's representation from the start (see EventQueue.poppedTime in @blis/engine).
  prefillEnqueueUs = -0;
  prefillCompleteUs = -0;
  transferStartUs = -0;
  transferCompleteUs = -0;
  decodeEnqueueUs = -0;
  completionUs = -0;
  /** The prefill part's scheduling delay, cache hits and preemptions: the parent reports them. */
  prefillSchedulingDelayUs = 0;
  prefillCacheHitBlocks = 0;
  prefillPreemptions = 0;
  /** The decode part, from the transfer's start (it holds the reserved KV while the transfer runs). */
  decode: SimRequest | undefined;

  constructor(parent: SimRequest, decodeInstance: number, blockSizeTokens: number) {
    this.parent = parent;
    this.decodeInstance = decodeInstance;
    this.numKVBlocks = Math.ceil(parent.inputTokens / blockSizeTokens);
    this.prefillEnqueueUs = this.prefillCompleteUs = this.transferStartUs = this.transferCompleteUs = this.decodeEnqueueUs = this.completionUs = -1;
  }
}
