// @blis/observe: the network side of BLIS, kept out of the simulation packages.

// --- calibrate: pairing, statistics, grades, report ---
export { calibrate, readCalibrationInputs } from './calibrate/calibrate.js';
export { compareAdapterReference, formatAdapterReference, parseDtReference, parseSimAggregate, readDtReference, readSimAggregate } from './calibrate/adapter-reference.js';
export type { AdapterMetricComparison, AdapterReferenceReport, DtAggregate, DtReference, SimAggregate } from './calibrate/adapter-reference.js';
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
export type { ObservedTraceRow, ObservedTrace, ObservedTraceHeader, SloDimTargets } from './calibrate/observed-trace.js';
export { pairRequests, simById, transferDelayUs } from './calibrate/pairing.js';
export type { BreakdownPairs, CalibrationPairs, LatencyPair, PairingOptions } from './calibrate/pairing.js';
export { KNOWN_LIMITATIONS, buildReport, stringifyReport } from './calibrate/report.js';
export type { CalibrationMetrics, CalibrationReport, CalibrationTraceInfo, ReportExtras } from './calibrate/report.js';
export type { BreakdownSummary, CalibrationBreakdowns } from './calibrate/breakdowns.js';
export { formatReportTable } from './calibrate/report-table.js';
export { numericRequestId } from './calibrate/request-id.js';
export { parseSimResults, readSimResults } from './calibrate/sim-results.js';
export type { SimRequestResult } from './calibrate/sim-results.js';
export { durationMs, mergeSloTargets, parseSloFlag } from './calibrate/slo-targets.js';
export type { SloFlagTargets } from './calibrate/slo-targets.js';
export { breakdownMape, mapeAndBias, mean, pearsonR, percentileSorted, qualityGrade, sortedCopy } from './calibrate/statistics.js';
export type { BiasDirection, CalibrationQuality } from './calibrate/statistics.js';

// --- recorder: `blis observe` (HTTP client, SSE timing, TraceV2 `mode: real` writer, /metrics scrape) ---
export { observe } from './recorder/observe.js';
export type { ObserveOptions, ObserveResult } from './recorder/observe.js';
export type { ObservedRecord, ObservedStatus } from './recorder/observed-record.js';
export { sendRequest } from './recorder/send-request.js';
export type { HttpTarget, SendOutcome } from './recorder/send-request.js';
export { requestBody, requestHeaders, vllmPriority, endpointPath, DEFAULT_MAX_TOKENS } from './recorder/request-body.js';
export type { ApiFormat, OutgoingRequest } from './recorder/request-body.js';
export { PromptText, tokensPerWord, wordsFor, CALIBRATION_PROMPT, CALIBRATION_WORDS } from './recorder/prompt-text.js';
export { dispatch } from './recorder/dispatch.js';
export type { ClosedLoop, DispatchPlan, DispatchResult } from './recorder/dispatch.js';
export { parsePrometheusText } from './recorder/prometheus-text.js';
export { scrapeMetrics, observedHitRate } from './recorder/kv-metrics-scrape.js';
export type { HitRateOutcome } from './recorder/kv-metrics-scrape.js';
export { writeRealTrace, realTraceCsv, realTraceHeaderYaml, itlCsv } from './recorder/trace-writer.js';
export type { RealTraceHeader, GoodputTargets } from './recorder/trace-writer.js';
export { parseClassDurations, goodputTargets, goDurationMs } from './recorder/goodput-targets.js';
export { probeServer } from './recorder/probe-server.js';
export { wallMicros } from './recorder/wall-clock.js';

// --- serve-sim: the simulator-backed OpenAI-compatible reference server ---
export { startSimServer, LiveSimulation, PushRequestSource, promptWords, wordBlockHashes } from './serve-sim/index.js';
export type { SimServer, SimServerOptions, ArrivalHold, LiveEntry, LiveRequest } from './serve-sim/index.js';
