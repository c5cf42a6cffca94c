// @blis/observe: the network side of BLIS, kept out of the simulation packages.

// --- calibrate: pairing, statistics, grades, report ---
export { calibrate, readCalibrationInputs } from './calibrate/calibrate.js';
export type { CalibrateOptions, CalibrationFiles, CalibrationInputs, CalibrationOutcome } from './calibrate/calibrate.js';
export { CalibrationInputError } from './calibrate/errors.js';
export type { CalibrationIssue } from './calibrate/errors.js';
export { compareGoodput, realRuntimeSec } from './calibrate/goodput.js';
export type { GoodputClassComparison, GoodputComparison, GoodputInputs, GoodputTargetsJson } from './calibrate/goodput.js';
export { itlRowsByRequest, readItlRows } from './calibrate/itl-data.js';
export type { ItlRow } from './calibrate/itl-data.js';
export { compareHitRate, parseSimCacheHitRate, readSimCacheHitRate, ttftTolerance } from './calibrate/kv-hit-rate.js';
export type { HitRateComparison, ToleranceVerdict } from './calibrate/kv-hit-rate.js';
export { compareMetric } from './calibrate/metric-comparison.js';
export type { MetricComparison, PredictionQuality, WorkloadAggregates } from './calibrate/metric-comparison.js';
export { OBSERVED_COLUMNS, readObservedHeader, readObservedRecords, readObservedTrace } from './calibrate/observed-trace.js';
export type { ObservedRecord, ObservedTrace, ObservedTraceHeader, SloDimTargets } from './calibrate/observed-trace.js';
export { pairRequests, simById, transferDelayUs } from './calibrate/pairing.js';
export type { BreakdownPairs, CalibrationPairs, LatencyPair, PairingOptions } from './calibrate/pairing.js';
export { KNOWN_LIMITATIONS, buildReport, stringifyReport } from './calibrate/report.js';
export type { CalibrationMetrics, CalibrationReport, CalibrationTraceInfo, ReportExtras } from './calibrate/report.js';
export { formatReportTable } from './calibrate/report-table.js';
export { numericRequestId } from './calibrate/request-id.js';
export { parseSimResults, readSimResults } from './calibrate/sim-results.js';
export type { SimRequestResult } from './calibrate/sim-results.js';
export { durationMs, mergeSloTargets, parseSloFlag } from './calibrate/slo-targets.js';
export type { SloFlagTargets } from './calibrate/slo-targets.js';
export { breakdownMape, mapeAndBias, mean, pearsonR, percentileSorted, qualityGrade, sortedCopy } from './calibrate/statistics.js';
export type { BiasDirection, CalibrationQuality } from './calibrate/statistics.js';

// --- recorder: `blis observe` (HTTP client, SSE timing, TraceV2 `mode: real` writer, /metrics scrape) ---

// --- serve-sim: the simulator-backed OpenAI-compatible reference server ---
export {};
