/**
 * The contract of a post-hoc saturation detector (BLIS's `sim/saturation.Detector`): after a run,
 * the completed requests are replayed as a stream of arrival and completion events, and the
 * detector gives a verdict after each one. It judges the run, not the gateway: the flow-control
 * saturation signal that holds requests back during a run is another thing.
 *
 * Here, beside the other policy contracts, so that a detector of one's own compiles against
 * `@blis/policies` alone; `@blis/trace` has the built-in ones and the replay that drives them.
 */

/** BLIS's three levels, from least to most severe (its JSON writes them so). */
export type SaturationLevel = 'STABLE' | 'BACKLOGGED' | 'OVERLOADED';

/** The levels by severity: a tie in the final vote goes to the later one. */
export const SATURATION_LEVELS: readonly SaturationLevel[] = ['STABLE', 'BACKLOGGED', 'OVERLOADED'];

/** One event of the replay: a request arriving, or completing `latencyMs` after its arrival. */
export interface SaturationEvent {
  /** µs of simulated time. */
  readonly timestampUs: number;
  readonly kind: 'arrival' | 'completion';
  /** BLIS's id (`request_<n>`): breaks ties between events of one kind at one time. */
  readonly requestId: string;
  /** The request's end-to-end latency in ms; 0 on an arrival. */
  readonly latencyMs: number;
}

/** A detector's verdict after one event; BLIS's `Result`. */
export interface SaturationVerdict {
  level: SaturationLevel;
  /** How far into its level the detector thinks the run is; each detector says how. */
  score: number;
  /** In [0, 1]: how much evidence stands behind the verdict. */
  confidence: number;
  /** The detector's inputs to the verdict, by name (written to the verdict trace, keys sorted). */
  signals: Record<string, number>;
}

/**
 * A streaming post-hoc saturation detector: `observe` folds one event in, `detect` reads the
 * verdict so far, `reset` starts over. Events come in time order (arrivals before completions at
 * one time); `detect` follows every `observe` when the trace is written, but only the events of
 * the final window are judged when only the label is wanted, so `detect` must not change state.
 */
export interface PostHocSaturationDetector {
  /** The name in the verdict trace and the label map (`composite`, `threshold`, ...). */
  readonly name: string;
  observe(event: SaturationEvent): void;
  detect(): SaturationVerdict;
  reset(): void;
}
