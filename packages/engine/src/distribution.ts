/** Summary statistics of a sample, as BLIS reports them (values in the sample's unit). */
export interface Distribution {
  count: number;
  mean: number;
  min: number;
  max: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
}

/**
 * Percentile with linear interpolation between closest ranks, computed the way BLIS does
 * (rank = p/100 * (n-1); lo + (hi - lo) * frac), so results agree to the last printed digit.
 * `sorted` must be ascending.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const rank = (p / 100) * (n - 1);
  const lo = Math.floor(rank);
  const hi = Math.min(lo + 1, n - 1);
  const frac = rank - lo;
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

/**
 * Summarises integer-µs samples in milliseconds. The mean divides the exact µs sum first, and
 * percentiles interpolate over values already converted to ms, matching BLIS's arithmetic.
 */
export function summarizeUsAsMs(samplesUs: Float64Array): Distribution {
  const n = samplesUs.length;
  if (n === 0) return { count: 0, mean: 0, min: 0, max: 0, p50: 0, p90: 0, p95: 0, p99: 0 };
  const ms = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += samplesUs[i];
    ms[i] = samplesUs[i] / 1000;
  }
  ms.sort();
  return {
    count: n,
    mean: sum / n / 1000,
    min: ms[0],
    max: ms[n - 1],
    p50: percentile(ms, 50),
    p90: percentile(ms, 90),
    p95: percentile(ms, 95),
    p99: percentile(ms, 99),
  };
}

/**
 * The same summary over a weighted multiset (value in µs -> count), used for ITL where every
 * decoding request of a step shares one value, so storing one entry per token is wasteful.
 */
export function summarizeWeightedUsAsMs(counts: ReadonlyMap<number, number>): Distribution {
  const values = [...counts.keys()].sort((a, b) => a - b);
  let n = 0;
  let sum = 0;
  for (const v of values) {
    const c = counts.get(v)!;
    n += c;
    sum += v * c;
  }
  if (n === 0) return { count: 0, mean: 0, min: 0, max: 0, p50: 0, p90: 0, p95: 0, p99: 0 };
  const cum = new Float64Array(values.length);
  let acc = 0;
  for (let i = 0; i < values.length; i++) {
    acc += counts.get(values[i])!;
    cum[i] = acc;
  }
  // k-th order statistic (0-based) in ms.
  const at = (k: number): number => {
    let lo = 0;
    let hi = values.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] > k) hi = mid;
      else lo = mid + 1;
    }
    return values[lo] / 1000;
  };
  const pct = (p: number): number => {
    const rank = (p / 100) * (n - 1);
    const lo = Math.floor(rank);
    const hi = Math.min(lo + 1, n - 1);
    const a = at(lo);
    return a + (at(hi) - a) * (rank - lo);
  };
  return {
    count: n,
    mean: sum / n / 1000,
    min: values[0] / 1000,
    max: values[values.length - 1] / 1000,
    p50: pct(50),
    p90: pct(90),
    p95: pct(95),
    p99: pct(99),
  };
}
