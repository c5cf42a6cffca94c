/**
 * Sample statistics for the distribution tests, with standard errors estimated from the sample
 * itself, so every tolerance follows from the sample size (and the sample's own spread) rather
 * than from what the code under test happens to produce.
 */
export interface Moments {
  n: number;
  mean: number;
  variance: number;
  /** Fourth central moment (for the standard error of the variance). */
  m4: number;
}

export function moments(xs: ArrayLike<number>): Moments {
  const n = xs.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += xs[i];
  const mean = sum / n;
  let m2 = 0;
  let m4 = 0;
  for (let i = 0; i < n; i++) {
    const d = xs[i] - mean;
    m2 += d * d;
    m4 += d * d * d * d;
  }
  return { n, mean, variance: m2 / (n - 1), m4: m4 / n };
}

/** Standard error of the sample mean: s / sqrt(n). */
export const seMean = (m: Moments) => Math.sqrt(m.variance / m.n);

/**
 * Standard error of the sample coefficient of variation s / mean, by the delta method bounded
 * with the triangle inequality: rel.SE(CV) <= rel.SE(mean) + rel.SE(s), where
 * rel.SE(s) = SE(s^2) / (2 s^2) and SE(s^2) = sqrt((m4 - s^4) / n) (large-sample variance of the
 * sample variance). Ignoring the covariance only makes the tolerance wider, never narrower.
 */
export function seCv(m: Moments): number {
  const cv = Math.sqrt(m.variance) / m.mean;
  const relMean = seMean(m) / m.mean;
  const relS = Math.sqrt(Math.max(0, m.m4 - m.variance * m.variance) / m.n) / (2 * m.variance);
  return cv * (relMean + relS);
}

export const cvOf = (m: Moments) => Math.sqrt(m.variance) / m.mean;

/** Standard normal CDF (Abramowitz & Stegun 7.1.26 erf, |error| < 1.5e-7). */
export function phi(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + y) : 0.5 * (1 - y);
}

/** The p-quantile of a sorted sample (the smallest x with at least p of the sample <= x). */
export function quantile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** Fraction of a sorted sample strictly below x and at or below x. */
export function ecdf(sorted: readonly number[], x: number): { below: number; atOrBelow: number } {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  let hi2 = lo;
  while (hi2 < sorted.length && sorted[hi2] === x) hi2++;
  return { below: lo / sorted.length, atOrBelow: hi2 / sorted.length };
}
