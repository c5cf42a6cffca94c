import { MAX_EXACT_INTEGER, describeFound, splitListMessage } from '@blis/policies/internal';
import { FitnessWeightsError, type SimulationConfigInput, parseFitnessWeights } from '@blis/cluster';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';

// What a run records and scores beyond its metrics: --fitness-weights, the decision trace,
// invariant checks, per-request records and the time series.

/** `--fitness-weights` as metric -> weight; its problem goes to `issues`. */
export function fitnessWeightsOf(f: Record<string, unknown>, issues: UsageIssue[]): Record<string, number> | undefined {
  if (typeof f.fitnessWeights !== 'string') return undefined;
  try {
    return parseFitnessWeights(f.fitnessWeights) as Record<string, number>;
  } catch (e) {
    if (!(e instanceof FitnessWeightsError)) throw e;
    issues.push({ where: '--fitness-weights', ...splitListMessage(e.message, 'metric:weight pairs') });
    return undefined;
  }
}

type OutputFields = Pick<SimulationConfigInput, 'trace' | 'checkInvariants' | 'includeRequests' | 'timeseriesIntervalUs'>;

/** The decision trace (--trace-level, --decision-trace, ...), --check-invariants, what needs per-request records, and the time series. */
export function outputFields(f: Record<string, unknown>): OutputFields {
  return {
    trace: {
      level: f.traceLevel as NonNullable<SimulationConfigInput['trace']>['level'],
      outputPath: f.decisionTrace as string | undefined,
      counterfactualK: f.counterfactualK as number | undefined,
      summarize: f.summarizeTrace === true,
      summaryMaxTokens: f.summaryMaxTokens as number | undefined,
      summaryStrategy: f.summaryStrategy as NonNullable<SimulationConfigInput['trace']>['summaryStrategy'],
      tailRatioThreshold: f.tailRatioThreshold as number | undefined,
    },
    checkInvariants: f.checkInvariants === true,
    includeRequests: ['resultsPath', 'report', 'metricsPath', 'traceOutput'].some((k) => typeof f[k] === 'string'),
    // A report draws the instances over time: --report samples every second unless told otherwise.
    timeseriesIntervalUs: timeseriesIntervalUs((f.timeseriesInterval as number | undefined) ?? (typeof f.report === 'string' ? REPORT_TIMESERIES_INTERVAL_MS : undefined)),
  };
}

/** The sampling interval `--report` implies when `--timeseries-interval` is not given. */
export const REPORT_TIMESERIES_INTERVAL_MS = 1000;

/**
 * `--timeseries-interval` in whole µs; a zero or sub-µs interval would sample forever, and one
 * beyond 2^53 µs (285 years) is no longer a whole number of µs.
 */
function timeseriesIntervalUs(ms: number | undefined): number | undefined {
  if (ms === undefined) return undefined;
  const us = Math.round(ms * 1000);
  if (us > MAX_EXACT_INTEGER)
    throw new UsageError([{ where: '--timeseries-interval', expected: `an interval of at most ${MAX_EXACT_INTEGER} µs`, found: `${describeFound(String(ms))} ms` }]);
  if (us < 1) throw new UsageError([{ where: '--timeseries-interval', expected: 'an interval of at least 1µs (e.g. "1000" ms or "1s")', found: `${describeFound(String(ms))} ms` }]);
  return us;
}
