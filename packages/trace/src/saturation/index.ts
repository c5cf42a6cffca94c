export { ThresholdDetector, DEFAULT_THRESHOLD_MS } from './threshold-detector.js';
export { CompositeDetector, COMPOSITE_MIN_TREND_SAMPLES } from './composite-detector.js';
export { BacklogDriftDetector, BACKLOG_DRIFT_SLOPE_K, DEFAULT_BACKLOG_DRIFT_WINDOW_US } from './backlog-drift-detector.js';
export {
  SATURATION_DETECTOR_NAMES,
  type SaturationDetectorName,
  type SaturationDetectorSettings,
  canonicalDetectorOrder,
  createSaturationDetector,
  isSaturationDetectorName,
} from './detector-roster.js';
export { saturationEvents, type CompletedRequestTimes } from './saturation-events.js';
export { FinalVote, finalLabel } from './final-label.js';
export { replaySaturation, type SaturationReplayOptions, type VerdictListener } from './saturation-replay.js';
export { VerdictTraceWriter } from './verdict-trace-json.js';
