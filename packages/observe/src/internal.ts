/**
 * `@blis/observe/internal`: the pieces behind `observe()`, `calibrate()` and `startSimServer()`
 * that the CLI and this repository's tests reach for: pairing and statistics, the recorded-trace
 * readers, request bodies and SSE timing, the Prometheus scrape, the trace writer's parts, the
 * CLI's SLO-flag parsers and the live simulation behind `blis serve-sim`.
 *
 * UNSTABLE: no semver promise. Names here may change or disappear in any release; a user needs
 * only the package root.
 *
 * @module internal
 */

export { parseDtReference, parseSimAggregate } from './calibrate/adapter-reference.js';
export { compareGoodput, realRuntimeSec } from './calibrate/goodput.js';
export { itlRowsByRequest, readItlRows } from './calibrate/itl-data.js';
export type { ItlRow } from './calibrate/itl-data.js';
export { compareHitRate, parseSimCacheHitRate, readSimCacheHitRate, ttftTolerance } from './calibrate/kv-hit-rate.js';
export { compareMetric } from './calibrate/metric-comparison.js';
export { OBSERVED_COLUMNS, readObservedHeader, readObservedRecords, readObservedTrace } from './calibrate/observed-trace.js';
export { pairRequests, simById, transferDelayUs } from './calibrate/pairing.js';
export type { BreakdownPairs, CalibrationPairs, LatencyPair, PairingOptions } from './calibrate/pairing.js';
export { KNOWN_LIMITATIONS, buildReport, stringifyReport } from './calibrate/report.js';
export { numericRequestId } from './calibrate/request-id.js';
export { parseSimResults, readSimResults } from './calibrate/sim-results.js';
export type { SimRequestResult } from './calibrate/sim-results.js';
export { durationMs, mergeSloTargets, parseSloFlag } from './calibrate/slo-targets.js';
export type { SloFlagTargets } from './calibrate/slo-targets.js';
export {
  breakdownMape,
  mapeAndBias,
  mean,
  pearsonR,
  percentileSorted,
  qualityGrade,
  sortedCopy,
} from './calibrate/statistics.js';
export { sendRequest } from './recorder/send-request.js';
export type { HttpTarget, SendOutcome } from './recorder/send-request.js';
export {
  requestBody,
  requestHeaders,
  vllmPriority,
  endpointPath,
  DEFAULT_MAX_TOKENS,
} from './recorder/request-body.js';
export type { ApiFormat, OutgoingRequest } from './recorder/request-body.js';
export {
  PromptText,
  tokensPerWord,
  wordsFor,
  CALIBRATION_PROMPT,
  CALIBRATION_WORDS,
} from './recorder/prompt-text.js';
export { dispatch } from './recorder/dispatch.js';
export type { ClosedLoop, DispatchPlan, DispatchResult } from './recorder/dispatch.js';
export { parsePrometheusText } from './recorder/prometheus-text.js';
export { scrapeMetrics, observedHitRate } from './recorder/kv-metrics-scrape.js';
export type { HitRateOutcome } from './recorder/kv-metrics-scrape.js';
export { realTraceCsv, realTraceHeaderYaml, itlCsv } from './recorder/trace-writer.js';
export { parseClassDurations, goodputTargets, goDurationMs } from './recorder/goodput-targets.js';
export { wallMicros } from './recorder/wall-clock.js';
export { LiveSimulation, PushRequestSource, promptWords, wordBlockHashes } from './serve-sim/index.js';
export type { ArrivalHold, LiveEntry, LiveRequest } from './serve-sim/index.js';
