/**
 * Quantile reduction for CDF charts. A 100k-request run must not embed 100k points per series,
 * so each series is cut to at most `maxPoints` exact quantiles at evenly spaced probabilities.
 * Quantiles use the closest-ranks interpolation the result summaries use (rank = p·(n−1)), so a
 * point at p = 0.99 is the run's p99.
 */

/** Default number of points a CDF series is reduced to. */
export const CDF_MAX_POINTS = 400;

/** One point of a reduced CDF: the value at cumulative probability `p`. */
export interface CdfPoint {
  p: number;
  value: number;
}

/** The p-quantile (0 ≤ p ≤ 1) of an ascending array, interpolating between closest ranks; NaN when empty. */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  return atRank(sorted, p * (n - 1));
}

function atRank(sorted: ArrayLike<number>, rank: number): number {
  const lo = Math.floor(rank);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return rank === lo ? sorted[lo] : sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

/** Ascending copy of the finite values. */
export function sortedFinite(values: Iterable<number>): Float64Array {
  const out: number[] = [];
  for (const v of values) if (Number.isFinite(v)) out.push(v);
  return Float64Array.from(out).sort();
}

/**
 * min(n, maxPoints) points at p = j/(k−1), j = 0..k−1 (one point at p = 1 when n = 1). With
 * n ≤ maxPoints every sample is a point (rank j lands exactly on the j-th value).
 */
export function cdfPoints(sorted: ArrayLike<number>, maxPoints: number = CDF_MAX_POINTS): CdfPoint[] {
  const n = sorted.length;
  if (n === 0) return [];
  const k = Math.max(1, Math.min(n, Math.floor(maxPoints)));
  if (k === 1) return [{ p: 1, value: sorted[n - 1] }];
  const out: CdfPoint[] = new Array(k);
  // rank = j·(n−1)/(k−1) rather than p·(n−1): integer products keep whole ranks exact.
  for (let j = 0; j < k; j++) out[j] = { p: j / (k - 1), value: atRank(sorted, (j * (n - 1)) / (k - 1)) };
  return out;
}
