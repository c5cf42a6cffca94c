import { type CalibrationBreakdowns, calibrationBreakdowns } from './breakdowns.js';
import type { GoodputComparison } from './goodput.js';
import { type HitRateComparison, type ToleranceVerdict, ttftTolerance } from './kv-hit-rate.js';
import { type MetricComparison, compareMetric } from './metric-comparison.js';
import type { CalibrationPairs } from './pairing.js';

export interface CalibrationTraceInfo {
  /** Matched + warm-up excluded + unmatched real records. */
  num_requests: number;
  warm_up_excluded: number;
  matched_pairs: number;
  token_mismatches: number;
  /** Present when some request lost its ITL to all-negative chunk gaps. */
  itl_dropped?: number;
}

/** The metrics graded; `itl` only with chunk timings. */
export interface CalibrationMetrics {
  e2e?: MetricComparison;
  itl?: MetricComparison;
  ttft?: MetricComparison;
}

/**
 * The calibration report, with BLIS's field names and order. `config_match` is always empty, as
 * in BLIS (comparing the header's server block with the simulated config is not implemented).
 */
export interface CalibrationReport {
  trace_info: CalibrationTraceInfo;
  metrics: CalibrationMetrics;
  config_match: { matched?: string[]; defaulted?: string[] };
  known_limitations: string[];
  goodput?: GoodputComparison;
  hit_rate?: HitRateComparison;
  ttft_tolerance?: ToleranceVerdict;
  /** Ours: per SLO class and per model (BLIS logs these to stderr and leaves them out). */
  breakdowns?: CalibrationBreakdowns;
}

/** What the report says it cannot see; our wording of BLIS's four caveats. */
export const KNOWN_LIMITATIONS: readonly string[] = [
  'The simulator advances in whole batch steps while a real server re-forms its batch at every iteration, so TTFT under heavy load can carry a systematic error.',
  "Replayed prompts get synthetic KV blocks that share only what the trace's prefix groups declare, so the simulated prefix-cache hit rate can differ from the server's, most of all after evictions.",
  "A real server that decodes speculatively emits tokens in bursts, which the simulator's one-token-per-step decode does not model.",
  'Token mismatches compare the server-reported prompt_tokens (when the trace has it) with the simulated prompt length; a chat template or block rounding can make them differ without any damage to the data, so they are counted, not excluded.',
];

/** Extra verdicts the caller computed beside the pairs. */
export interface ReportExtras {
  goodput?: GoodputComparison;
  hitRate?: HitRateComparison;
  ttftMapeThreshold: number;
}

/** The report of a set of pairs (at least one TTFT pair). */
export function buildReport(pairs: CalibrationPairs, extras: ReportExtras): CalibrationReport {
  const traceInfo: CalibrationTraceInfo = {
    num_requests: pairs.matched + pairs.excludedWarmUp + pairs.unmatchedReal,
    warm_up_excluded: pairs.excludedWarmUp,
    matched_pairs: pairs.matched,
    token_mismatches: pairs.tokenMismatches,
  };
  if (pairs.itlDropped > 0) traceInfo.itl_dropped = pairs.itlDropped;
  // Alphabetical, as BLIS's map comes out.
  const metrics: CalibrationMetrics = {};
  if (pairs.e2e.real.length > 0) metrics.e2e = compareMetric(pairs.e2e.real, pairs.e2e.sim);
  if (pairs.itl.real.length > 0) metrics.itl = compareMetric(pairs.itl.real, pairs.itl.sim);
  if (pairs.ttft.real.length > 0) metrics.ttft = compareMetric(pairs.ttft.real, pairs.ttft.sim);
  const report: CalibrationReport = { trace_info: traceInfo, metrics, config_match: {}, known_limitations: [...KNOWN_LIMITATIONS] };
  if (extras.goodput !== undefined) report.goodput = extras.goodput;
  if (extras.hitRate !== undefined) report.hit_rate = extras.hitRate;
  if (metrics.ttft !== undefined) report.ttft_tolerance = ttftTolerance(metrics.ttft.request_level.mape, extras.ttftMapeThreshold);
  const breakdowns = calibrationBreakdowns(pairs);
  if (breakdowns !== undefined) report.breakdowns = breakdowns;
  return report;
}

/** The report file's text: two-space indented JSON, as BLIS writes it. */
export function stringifyReport(report: CalibrationReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
