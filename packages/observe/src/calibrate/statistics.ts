/** The grade of a metric's request-level fit, best first. */
export type CalibrationQuality = 'excellent' | 'good' | 'fair' | 'poor';
/** Which way the simulator errs, summed over the pairs MAPE counts. */
export type BiasDirection = 'over-predict' | 'under-predict' | 'neutral';

export function mean(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** A sorted copy; numeric order (the default sort compares text). */
export function sortedCopy(xs: readonly number[]): number[] {
  return [...xs].sort((a, b) => a - b);
}

/** The p-th percentile of sorted values, interpolated linearly at rank p/100·(n−1); 0 when empty. */
export function percentileSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  if (sorted.length === 1) return sorted[0];
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  if (lo === hi) return sorted[lo];
  return sorted[lo] + (rank - lo) * (sorted[hi] - sorted[lo]);
}

/**
 * Mean absolute percentage error (a fraction) over the pairs whose real value is not 0, and
 * the sign of Σ(sim − real) over the same pairs. With no such pair: MAPE 0 and no direction.
 */
export function mapeAndBias(real: readonly number[], sim: readonly number[]): { mape: number; bias: BiasDirection | '' } {
  let sum = 0;
  let n = 0;
  let bias = 0;
  for (let i = 0; i < real.length; i++) {
    if (real[i] === 0) continue;
    sum += Math.abs(real[i] - sim[i]) / real[i];
    bias += sim[i] - real[i];
    n++;
  }
  if (n === 0) return { mape: 0, bias: '' };
  return { mape: sum / n, bias: bias > 0 ? 'over-predict' : bias < 0 ? 'under-predict' : 'neutral' };
}

/**
 * MAPE for the per-class and per-model breakdowns: as {@link mapeAndBias}, but pairs whose real
 * value or error is not finite are skipped too.
 */
export function breakdownMape(real: readonly number[], sim: readonly number[]): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < real.length; i++) {
    if (real[i] === 0 || !Number.isFinite(real[i])) continue;
    const e = Math.abs(real[i] - sim[i]) / real[i];
    if (!Number.isFinite(e)) continue;
    sum += e;
    n++;
  }
  return n === 0 ? 0 : sum / n;
}

/** Pearson's r by the sum formula; 0 below 3 pairs or when either side has no variance. */
export function pearsonR(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  if (n < 3) return 0;
  let sx = 0;
  let sy = 0;
  let sxy = 0;
  let sx2 = 0;
  let sy2 = 0;
  for (let i = 0; i < n; i++) {
    sx += x[i];
    sy += y[i];
    sxy += x[i] * y[i];
    sx2 += x[i] * x[i];
    sy2 += y[i] * y[i];
  }
  const den = Math.sqrt((n * sx2 - sx * sx) * (n * sy2 - sy * sy));
  // A negative product under the root (rounding with near-constant data) gives NaN: no correlation either.
  if (den === 0 || Number.isNaN(den)) return 0;
  return (n * sxy - sx * sy) / den;
}

/** The grade: each band needs both a MAPE below and an r above its limits, strictly. */
export function qualityGrade(mape: number, r: number): CalibrationQuality {
  if (mape < 0.1 && r > 0.95) return 'excellent';
  if (mape < 0.2 && r > 0.85) return 'good';
  if (mape < 0.35 && r > 0.7) return 'fair';
  return 'poor';
}
