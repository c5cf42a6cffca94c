// @blis/observe: the network side of BLIS, kept out of the simulation packages. The root holds
// the three library entries (`observe`, `calibrate`, `startSimServer`) with what a program needs
// around them; their parts are in `@blis/observe/internal` (unstable). README: "What is public".

// --- calibrate: a replay graded against the recording (report, table, adapter reference) ---
export { calibrate, readCalibrationInputs } from './calibrate/calibrate.js';
export { compareAdapterReference, formatAdapterReference, readDtReference, readSimAggregate } from './calibrate/adapter-reference.js';
export type {
  AdapterMetricComparison,
  AdapterReferenceReport,
  DtAggregate,
  DtReference,
  SimAggregate,
} from './calibrate/adapter-reference.js';
export type { CalibrateOptions, CalibrationFiles, CalibrationInputs, CalibrationOutcome } from './calibrate/calibrate.js';
export { CalibrationInputError } from './calibrate/errors.js';
export type { CalibrationIssue } from './calibrate/errors.js';
export type { GoodputClassComparison, GoodputComparison, GoodputInputs, GoodputTargetsJson } from './calibrate/goodput.js';
export type { HitRateComparison, ToleranceVerdict } from './calibrate/kv-hit-rate.js';
export type { MetricComparison, PredictionQuality, WorkloadAggregates } from './calibrate/metric-comparison.js';
export type { ObservedTraceRow, ObservedTrace, ObservedTraceHeader, SloDimTargets } from './calibrate/observed-trace.js';
export type { CalibrationMetrics, CalibrationReport, CalibrationTraceInfo, ReportExtras } from './calibrate/report.js';
export type { BreakdownSummary, CalibrationBreakdowns } from './calibrate/breakdowns.js';
export { formatReportTable } from './calibrate/report-table.js';
export type { BiasDirection, CalibrationQuality } from './calibrate/statistics.js';

// --- recorder: `blis observe` (HTTP client, SSE timing, TraceV2 `mode: real` writer, /metrics scrape) ---
export { observe } from './recorder/observe.js';
export type { ObserveOptions, ObserveResult } from './recorder/observe.js';
export type { ObservedRecord, ObservedStatus } from './recorder/observed-record.js';
export { writeRealTrace } from './recorder/trace-writer.js';
export type { RealTraceHeader, GoodputTargets } from './recorder/trace-writer.js';
export { probeServer } from './recorder/probe-server.js';

// --- serve-sim: the simulator-backed OpenAI-compatible reference server ---
export { startSimServer } from './serve-sim/index.js';
export type { SimServer, SimServerOptions } from './serve-sim/index.js';
