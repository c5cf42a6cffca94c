import type { DEFAULT_SLO_CLASS } from './spec-schema.js';
import type { ThinkTimeDist } from './think-time/think-time-dist.js';

export interface RequestSourceOptions {
  /** Tokens per KV block, for the prompt block hashes (16). */
  blockSizeTokens?: number;
  /** Overrides the spec's `num_requests`. */
  maxRequests?: number;
  /** Overrides the spec's seed. */
  seed?: number;
  /**
   * The run's horizon, µs: where generation stops when the spec sets no horizon of its own (as
   * BLIS generates up to its simulation horizon). Closed-loop sessions and concurrency users need
   * a bounded dry run to plan, so without it such a spec needs `num_requests` or `horizon`.
   */
  horizonUs?: number;
  /** Overrides every client's `timeout` (µs after arrival; 0 = no deadline), as BLIS's explicit `--timeout` does. */
  timeoutUs?: number;
  /** The spec's file, named when a request it generates is refused (default: "workload spec"). */
  file?: string;
  /** The SLO class of a client that names none ({@link DEFAULT_SLO_CLASS}; `blis observe` gives '': no class). */
  defaultSloClass?: string;
  /**
   * Every closed-loop session's and user's pauses drawn from this on its own generator instead of
   * its `think_time_us` (BLIS observe's `--think-time-dist`).
   */
  thinkTime?: ThinkTimeDist;
}
