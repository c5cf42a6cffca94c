import type { ModalityTokens } from '@blis/policies';

/**
 * One request as a workload produces it: lengths, arrival, identity and the hashes of its
 * prompt's KV blocks. No token ids: two prompts share exactly the leading blocks whose hashes
 * are equal, and each hash already chains its predecessor.
 */
export interface RequestSpec {
  /** Dense 0-based index assigned by the source in emission order. */
  index: number;
  /** External identifier (trace `request_id`); defaults to the index as a string. */
  id: string;
  arrivalUs: number;
  inputTokens: number;
  outputTokens: number;
  /** Hierarchical hashes of the prompt's full blocks (length <= floor(inputTokens / blockSize)). */
  blockHashes: ArrayLike<number>;
  /**
   * Hashes of every block the request's KV fills, prompt and generated tokens alike: starts
   * with `blockHashes`, then one per block its answer completes. The engine registers a block
   * under its hash when decode fills it, so a later request whose prompt repeats this one's
   * prompt and answer (a session's next round) hits it. Absent: only prompt blocks are cached.
   */
  kvBlockHashes?: ArrayLike<number>;
  /**
   * Leading blocks of `blockHashes` that other requests of the workload may carry too (a prefix
   * group's, a session's earlier rounds'). The blocks after them hash content this request alone
   * has, so no cache can hold them before the request has run. Absent when the workload cannot
   * tell (ids or hashes from a file); see `RequestView.sharedPrefixBlocks` in `@blis/policies`.
   */
  sharedPrefixBlocks?: number;
  clientId: string;
  tenantId: string;
  sloClass: string;
  /**
   * True when the request's client named no SLO class and `sloClass` is the source's default:
   * BLIS keeps such a request's class empty, and its goodput counts it under `default`.
   */
  unnamedSloClass?: boolean;
  sessionId: string;
  roundIndex: number;
  prefixGroup: string;
  prefixLength: number;
  streaming: boolean;
  /** Absolute deadline in µs after which an unfinished request times out; 0 = none. */
  deadlineUs: number;
  /** Per-request TTFT target in µs; 0 = none. */
  sloTargetUs: number;
  /** Client-side network delay added to client-observed latencies (µs); 0 = none. */
  networkDelayUs: number;
  /** The LoRA adapter serving the request (a registry id); absent or '' = the base model. */
  adapter?: string;
  /**
   * A multimodal prompt's tokens by modality (their sum is `inputTokens` less any shared
   * prefix); absent for a text-only request. Counts only: the engine treats them as text.
   */
  modalities?: ModalityTokens;
}

/**
 * A lazy stream of requests in non-decreasing arrival order. The simulator pulls a request only
 * when the clock reaches its arrival, so memory does not grow with the request count.
 */
export interface RequestSource {
  /** Arrival time of the next request, or Infinity when nothing is pending right now. */
  peekArrivalUs(): number;
  /** Removes and returns the next request (the one {@link peekArrivalUs} describes). */
  next(): RequestSpec | undefined;
  /**
   * Called when a request leaves the system (completed, dropped, rejected or timed out), so
   * that closed-loop sources (multi-turn sessions) can schedule the follow-up round.
   */
  onRequestDone?(spec: RequestSpec, timeUs: number, outcome: RequestOutcome): void;
  /**
   * True when {@link RequestSource.onRequestDone} never schedules a request: arrivals do not depend on what
   * the simulation does (an open-loop workload or trace). A cluster then lets an instance take
   * quiet decode steps past other instances' events, which cannot reach it before the next
   * arrival. Absent or false: a completion anywhere may bring an arrival at once.
   */
  readonly openLoop?: boolean;
}

export type RequestOutcome = 'completed' | 'dropped' | 'rejected' | 'timed_out';

/** Fills in defaults for the optional identity fields of a request. */
export function makeRequestSpec(
  partial: Pick<RequestSpec, 'index' | 'arrivalUs' | 'inputTokens' | 'outputTokens'> & Partial<RequestSpec>,
): RequestSpec {
  return {
    id: String(partial.index),
    blockHashes: [],
    clientId: '',
    tenantId: '',
    sloClass: '',
    sessionId: '',
    roundIndex: 0,
    prefixGroup: '',
    prefixLength: 0,
    streaming: false,
    deadlineUs: 0,
    sloTargetUs: 0,
    networkDelayUs: 0,
    ...partial,
  };
}

/** A source over an in-memory array, sorted by arrival (stable). Handy for tests and replays. */
export class ArrayRequestSource implements RequestSource {
  private readonly items: RequestSpec[];
  private i = 0;
  constructor(items: readonly RequestSpec[]) {
    this.items = [...items].sort((a, b) => a.arrivalUs - b.arrivalUs || a.index - b.index);
  }
  peekArrivalUs(): number {
    return this.i < this.items.length ? this.items[this.i].arrivalUs : Number.POSITIVE_INFINITY;
  }
  next(): RequestSpec | undefined {
    return this.i < this.items.length ? this.items[this.i++] : undefined;
  }
}
