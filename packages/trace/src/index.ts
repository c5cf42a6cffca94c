// @blis/trace: decision traces, counterfactual regret, anomaly reports, reflection summaries and
// the post-hoc saturation detectors. The root holds what a user records, reads back and analyses
// with; the recorder's and the replay's parts are in `@blis/trace/internal` (unstable). README:
// "What is public".

export type {
  DecisionObserver,
  KvTransferKind,
  PdTransferRecord,
  ScaleAction,
  ScaleEvaluation,
  ScaleOutcome,
} from './decision-observer.js';
export { TraceRecorder, type TraceRecorderOptions, type TraceReport } from './trace-recorder.js';
export * from './records.js';
export { type TraceSink, JsonlFileSink, MemorySink, TraceOutputError } from './trace-sink.js';
export { parseTrace, parseTraceLine, readTraceFile, TraceParseError } from './trace-reader.js';
export { regretOf, topCandidates } from './counterfactual.js';
export {
  type AnomalyReport,
  type AnomalyCount,
  type AnomalyExample,
  type TailBlowupExample,
  type ScaleOscillationExample,
  buildAnomalyReport,
} from './anomaly-report.js';
export {
  TraceAnalyzer,
  analyzeTrace,
  type ClassStats,
  type AnomalyTally,
} from './trace-analyzer.js';
export type { DecisionContext, JudgedDecision } from './decision-context.js';
export {
  summarizeTrace,
  estimateTokens,
  SUMMARY_STRATEGIES,
  type SummaryOptions,
  type SummaryStrategy,
} from './summary.js';

// Saturation detectors replayed over a finished run's requests (docs/saturation.md).
export { ThresholdDetector } from './saturation/threshold-detector.js';
export { CompositeDetector } from './saturation/composite-detector.js';
export { BacklogDriftDetector } from './saturation/backlog-drift-detector.js';
export { SATURATION_DETECTOR_NAMES, type SaturationDetectorName, type SaturationDetectorSettings, createSaturationDetector } from './saturation/detector-roster.js';
export { saturationEvents, type CompletedRequestTimes } from './saturation/saturation-events.js';
export { FinalVote } from './saturation/final-label.js';
export { replaySaturation, type SaturationReplayOptions, type VerdictListener } from './saturation/saturation-replay.js';
export { VerdictTraceWriter } from './saturation/verdict-trace-json.js';
