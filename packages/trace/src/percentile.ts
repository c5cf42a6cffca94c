/**
 * Nearest-rank percentile (the smallest value with at least p% of the sample at or below it) of
 * an ascending-sorted sample; NaN when empty. Traces quote sample values, never interpolations,
 * so every percentile in a summary is a TTFT some request actually had.
 */
export function nearestRank(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * n);
  return sorted[Math.min(n, Math.max(1, rank)) - 1];
}

/** Ascending copy of `values`. */
export function sortedCopy(values: ArrayLike<number>): Float64Array {
  const a = Float64Array.from(values as ArrayLike<number>);
  a.sort();
  return a;
}
