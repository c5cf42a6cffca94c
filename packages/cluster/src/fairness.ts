/** Jain's fairness index: (Σx)² / (n·Σx²); 1 when all equal, 1/n when one takes everything. */
export function jainIndex(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) return 1;
  let s = 0;
  let s2 = 0;
  for (let i = 0; i < n; i++) {
    s += values[i];
    s2 += values[i] * values[i];
  }
  return s2 === 0 ? 1 : (s * s) / (n * s2);
}

/** Coefficient of variation (population standard deviation / mean); 0 for an empty or all-zero set. */
export function coefficientOfVariation(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) return 0;
  let s = 0;
  for (let i = 0; i < n; i++) s += values[i];
  const mean = s / n;
  if (mean === 0) return 0;
  let v = 0;
  for (let i = 0; i < n; i++) v += (values[i] - mean) ** 2;
  return Math.sqrt(v / n) / mean;
}

/** max / min, or null when the minimum is zero (the ratio is unbounded). */
export function maxMinRatio(values: ArrayLike<number>): number | null {
  if (values.length === 0) return null;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < values.length; i++) {
    if (values[i] < lo) lo = values[i];
    if (values[i] > hi) hi = values[i];
  }
  return lo === 0 ? null : hi / lo;
}
