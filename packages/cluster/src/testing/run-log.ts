/**
 * The event log an {@link InvariantRecorder} keeps of one run: plain data, in the order the
 * cluster reported it, so the checkers can be fed a log built by hand (or doctored) too.
 * Requests are named by their id; a P/D part by its part id (`<id>_prefill`, `<id>_decode`).
 */

/** Which piece of a request an event is about (P/D splits a request into two parts). */
export type LogPart = 'whole' | 'prefill' | 'decode';

/** What a policy was shown at one decision, for INV-7 (freshness) and INV-9 (no output length). */
export interface DecisionView {
  /** Keys of the request view the policy got that name an output length (INV-9: none). */
  exposedKeys: string[];
  /** Per instance in the view: its global index, how old its snapshot was, and its in-flight count. */
  instances: { index: number; snapshotAgeUs: number; inFlight: number; inFlightTruth?: number }[];
}

/** One reported event of a run. */
export type LogEvent =
  | { kind: 'admission'; now: number; request: string; arrivalUs: number; admit: boolean }
  | { kind: 'routing'; now: number; request: string; instance: number; stage: 'routing' | 'prefill-routing' }
  | { kind: 'decision'; now: number; request: string; stage: 'admission' | 'routing'; view: DecisionView }
  | { kind: 'queued' | 'scheduled' | 'preempted'; now: number; request: string; part: LogPart; instance: number }
  | { kind: 'step'; now: number; instance: number }
  | { kind: 'completed'; now: number; request: string; part: LogPart }
  | { kind: 'dropped'; now: number; request: string; part: LogPart; reason: string }
  | { kind: 'disaggregation'; now: number; request: string; split: boolean; decodeInstance: number }
  | {
      kind: 'pd-transfer';
      now: number;
      request: string;
      startUs: number;
      durationUs: number;
      prefillInstance: number;
      decodeInstance: number;
    }
  | { kind: 'scale-action'; now: number; pool: string; before: number; after: number }
  | { kind: 'instance-state'; now: number; instance: number; id: string; state: string }
  | { kind: 'kv-transfer'; now: number; instance: number; transfer: string; storedAtUs?: number };

/** What the recorder knew about the run's setup, for the checks that depend on it. */
export interface RunFacts {
  /** Snapshot refresh interval, µs (INV-7: a snapshot is never older). */
  snapshotRefreshIntervalUs: number;
  /** Per instance index: `prefill`, `decode`, `shared` or `unassigned` (P/D runs only). */
  pools?: string[];
  /** Replica bounds of the autoscaler (autoscaled runs only). */
  replicaBounds?: { min: number; max: number };
  /** A horizon may have cut the run off: requests and transfers may be left in flight. */
  cutOff?: boolean;
}

/** The log of one run: its events and the facts its checks need. */
export interface RunLog {
  facts: RunFacts;
  events: LogEvent[];
}
