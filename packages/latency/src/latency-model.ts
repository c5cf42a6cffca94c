/**
 * What one simulation step processes, as the latency model needs to see it.
 *
 * The engine owns a single instance of this shape per simulator and refills it every step, so
 * models must not retain it. Only the first `prefillCount` / `decodeCount` entries of the
 * arrays are meaningful.
 */
export interface StepBatch {
  /** Cache-miss prompt tokens processed this step, summed over requests. */
  prefillTokens: number;
  /** Decoding requests this step (each contributes one token). */
  decodeTokens: number;
  /** Number of requests doing prefill work this step. */
  prefillCount: number;
  /** Per prefilling request: new (cache-miss) tokens processed this step. */
  prefillNewTokens: Int32Array;
  /** Per prefilling request: tokens already in its KV cache before this step (context start). */
  prefillContextStart: Int32Array;
  /** Per prefilling request: its whole prompt length (input tokens), cached part included. */
  prefillInputTokens: Int32Array;
  /** Number of decoding requests this step. */
  decodeCount: number;
  /** Per decoding request: context length (tokens in its KV cache) before this step. */
  decodeContext: Int32Array;
  /**
   * When >= 0, the sum of the decode contexts, and `decodeContext` may not be filled: the
   * engine sets it on every step for a model whose {@link LatencyModel.decodeInputs} is `sum`
   * (and on steps with requests in bulk for any model). Absent or negative: sum the entries.
   */
  decodeContextSum?: number;
}

/** Predicts GPU step time and the non-GPU overheads around it, all in integer microseconds. */
export interface LatencyModel {
  readonly kind: 'blackbox' | 'roofline' | 'trained-physics' | (string & {});
  /**
   * What `stepTime` reads of the decoding requests: their count only, the sum of their contexts
   * (an integer sum, so its order does not matter), or each context in batch order. Declaring
   * it also promises integer step times: the engine may then advance plain decode steps in
   * bulk (its ITL sums stay exact). Absent: the engine steps one request at a time.
   */
  readonly decodeInputs?: 'count' | 'sum' | 'each';
  /** Step duration in µs, an integer of at least 1. */
  stepTime(batch: StepBatch): number;
  /** Delay between a request's arrival and its entry into the wait queue, in integer µs. */
  queueingTime(inputTokens: number): number;
  /** Per-output-token processing overhead added to TTFT and to each ITL entry, in integer µs. */
  outputTokenTime(): number;
  /**
   * Fixed overhead added once to a request's E2E when it completes, if it has output tokens, in
   * integer µs. It delays neither the first token nor the simulation clock.
   */
  postDecodeFixedOverhead(): number;
}

/** Allocates an empty, reusable {@link StepBatch} able to describe up to `capacity` requests. */
export function createStepBatch(capacity = 256): StepBatch {
  return {
    prefillTokens: 0,
    decodeTokens: 0,
    prefillCount: 0,
    prefillNewTokens: new Int32Array(capacity),
    prefillContextStart: new Int32Array(capacity),
    prefillInputTokens: new Int32Array(capacity),
    decodeCount: 0,
    decodeContext: new Int32Array(capacity),
    decodeContextSum: -1,
  };
}
