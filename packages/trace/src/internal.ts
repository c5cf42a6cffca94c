/**
 * `@blis/trace/internal`: the trace recorder's and the saturation replay's parts that
 * `@blis/cluster`, the CLI and this repository's tests share: anomaly detection, the P/D and
 * scale analyses, top-N and percentile helpers, the detector roster's ordering, and the
 * defaults of each detector and of the recorder.
 *
 * UNSTABLE: no semver promise. Names here may change or disappear in any release; a user needs
 * only the package root.
 *
 * @module internal
 */

export { DEFAULT_TAIL_RATIO_THRESHOLD, DEFAULT_KV_THRASH_WINDOW_US, DEFAULT_SCALE_COOLDOWN_US } from './trace-recorder.js';
export { formatRecord } from './json-line.js';
export { AnomalyDetector, type AnomalyDetectorOptions } from './anomaly-detector.js';
export { detectTailBlowups, TAIL_MIN_SAMPLES, type ClassLatencies } from './tail-latency.js';
export { TopN } from './top-n.js';
export { PdAnalysis, type TransferShare } from './pd-analysis.js';
export { ScaleAnalysis } from './scale-analysis.js';
export { nearestRank } from './percentile.js';
export { DEFAULT_THRESHOLD_MS } from './saturation/threshold-detector.js';
export { COMPOSITE_MIN_TREND_SAMPLES } from './saturation/composite-detector.js';
export { BACKLOG_DRIFT_SLOPE_K, DEFAULT_BACKLOG_DRIFT_WINDOW_US } from './saturation/backlog-drift-detector.js';
export { canonicalDetectorOrder, isSaturationDetectorName } from './saturation/detector-roster.js';
export { finalLabel } from './saturation/final-label.js';
