export type { DecisionObserver, KvTransferKind, PdTransferRecord, ScaleAction, ScaleEvaluation, ScaleOutcome } from './decision-observer.js';
export {
  TraceRecorder,
  type TraceRecorderOptions,
  type TraceReport,
  DEFAULT_TAIL_RATIO_THRESHOLD,
  DEFAULT_KV_THRASH_WINDOW_US,
  DEFAULT_SCALE_COOLDOWN_US,
} from './trace-recorder.js';
export * from './records.js';
export { formatRecord } from './json-line.js';
export { type TraceSink, JsonlFileSink, MemorySink, TraceOutputError } from './trace-sink.js';
export { parseTrace, parseTraceLine, readTraceFile, TraceParseError } from './trace-reader.js';
export { regretOf, topCandidates } from './counterfactual.js';
export { AnomalyDetector, type AnomalyDetectorOptions } from './anomaly-detector.js';
export { detectTailBlowups, TAIL_MIN_SAMPLES, type ClassLatencies } from './tail-latency.js';
export { type AnomalyReport, type AnomalyCount, type AnomalyExample, type TailBlowupExample, type ScaleOscillationExample, buildAnomalyReport } from './anomaly-report.js';
export { TopN } from './top-n.js';
export { PdAnalysis, type TransferShare } from './pd-analysis.js';
export { ScaleAnalysis } from './scale-analysis.js';
export { TraceAnalyzer, analyzeTrace, type ClassStats, type AnomalyTally } from './trace-analyzer.js';
export type { DecisionContext } from './decision-context.js';
export type { JudgedDecision } from './decision-context.js';
export { summarizeTrace, estimateTokens, SUMMARY_STRATEGIES, type SummaryOptions, type SummaryStrategy } from './summary.js';
export { nearestRank } from './percentile.js';

export * from './saturation/index.js';
