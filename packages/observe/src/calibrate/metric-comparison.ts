import { type BiasDirection, type CalibrationQuality, mapeAndBias, mean, pearsonR, percentileSorted, qualityGrade, sortedCopy } from './statistics.js';

/** The shape of the latency distributions, real against simulated (BLIS's field names). */
export interface WorkloadAggregates {
  real_mean: number;
  sim_mean: number;
  mean_error: number;
  mean_percent_error: number;
  real_median: number;
  sim_median: number;
  median_error: number;
  median_percent_error: number;
  real_p50: number;
  sim_p50: number;
  p50_error: number;
  p50_percent_error: number;
  real_p90: number;
  sim_p90: number;
  p90_error: number;
  p90_percent_error: number;
  real_p95: number;
  sim_p95: number;
  p95_error: number;
  p95_percent_error: number;
  real_p99: number;
  sim_p99: number;
  p99_error: number;
  p99_percent_error: number;
}

/** How well each request is predicted. */
export interface PredictionQuality {
  /** A fraction, not a percentage. */
  mape: number;
  pearson_r: number;
  /** Empty when every real value is 0. */
  bias_direction: BiasDirection | '';
  quality: CalibrationQuality;
}

export interface MetricComparison {
  workload_level: WorkloadAggregates;
  request_level: PredictionQuality;
  count: number;
}

/** |sim − real| / real, or 0 when real is not positive. */
function percentError(real: number, sim: number): number {
  return real > 0 ? Math.abs(sim - real) / real : 0;
}

/** Compares paired real and simulated values of one metric (same length, at least one pair). */
export function compareMetric(real: readonly number[], sim: readonly number[]): MetricComparison {
  if (real.length === 0 || real.length !== sim.length) throw new RangeError(`compareMetric needs equal, non-empty vectors (real ${real.length}, sim ${sim.length})`);
  const rs = sortedCopy(real);
  const ss = sortedCopy(sim);
  const w = {} as WorkloadAggregates;
  const put = (name: 'mean' | 'median' | 'p50' | 'p90' | 'p95' | 'p99', r: number, s: number) => {
    Object.assign(w, { [`real_${name}`]: r, [`sim_${name}`]: s, [`${name}_error`]: s - r, [`${name}_percent_error`]: percentError(r, s) });
  };
  // Key order follows BLIS's struct: mean, median, then the percentiles.
  put('mean', mean(real), mean(sim));
  put('median', percentileSorted(rs, 50), percentileSorted(ss, 50));
  for (const p of [50, 90, 95, 99] as const) put(`p${p}`, percentileSorted(rs, p), percentileSorted(ss, p));
  const { mape, bias } = mapeAndBias(real, sim);
  const r = pearsonR(real, sim);
  return { workload_level: w, request_level: { mape, pearson_r: r, bias_direction: bias, quality: qualityGrade(mape, r) }, count: real.length };
}
