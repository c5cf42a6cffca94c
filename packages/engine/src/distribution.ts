import { selectOrderStatistics } from './order-statistics.js';

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
 * Percentile with linear interpolation between closest ranks (rank = p/100 * (n-1);
 * lo + (hi - lo) * frac), in the sample's unit. `sorted` must be ascending. The run summaries
 * interpolate in exact µs instead, as BLIS does, to agree to the last printed digit.
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
 * BLIS's p-th percentile (closest ranks) of n µs samples, in ms, given the k-th order statistic
 * `at(k)`: `lo/1000 + (hi − lo)·frac/1000`. The difference is taken in exact µs before scaling,
 * so it can differ in the last digit from interpolating values already converted to ms.
 */
function percentileUsAsMs(n: number, p: number, at: (k: number) => number): number {
  const rank = (p / 100) * (n - 1);
  const lo = Math.floor(rank);
  const loUs = at(lo);
  const hiUs = at(Math.min(lo + 1, n - 1));
  return loUs / 1000 + ((hiUs - loUs) * (rank - lo)) / 1000;
}

/**
 * Samples up to this many are sorted by the built-in sort rather than selected: a summary
 * usually runs once, before its JS is optimised, where the native sort of a few thousand values
 * beats interpreted selection; past it, selection's linear time wins.
 */
export const NATIVE_SORT_MAX = 16384;

/**
 * Summarises integer-µs samples in milliseconds. The mean divides the exact µs sum first, and
 * percentiles interpolate in µs before converting, matching BLIS's arithmetic.
 */
export function summarizeUsAsMs(samplesUs: Float64Array): Distribution {
  const n = samplesUs.length;
  if (n === 0) return { count: 0, mean: 0, min: 0, max: 0, p50: 0, p90: 0, p95: 0, p99: 0 };
  let sum = 0;
  const ordered = samplesUs.slice();
  let min: number;
  let max: number;
  if (n <= NATIVE_SORT_MAX) {
    for (let i = 0; i < n; i++) sum += samplesUs[i];
    ordered.sort();
    min = ordered[0];
    max = ordered[n - 1];
  } else {
    min = samplesUs[0];
    max = min;
    // Selection needs values `<` orders as a sort does: no NaN, no -0.
    let selectable = true;
    for (let i = 0; i < n; i++) {
      const v = samplesUs[i];
      sum += v;
      if (v < min) min = v;
      if (v > max) max = v;
      if (Number.isNaN(v) || (v === 0 && 1 / v < 0)) selectable = false;
    }
    if (selectable) selectOrderStatistics(ordered, percentileRanks(n));
    else {
      ordered.sort();
      min = ordered[0];
      max = ordered[n - 1];
    }
  }
  return {
    count: n,
    mean: sum / n / 1000,
    min: min / 1000,
    max: max / 1000,
    p50: percentileUsAsMs(n, 50, (k) => ordered[k]),
    p90: percentileUsAsMs(n, 90, (k) => ordered[k]),
    p95: percentileUsAsMs(n, 95, (k) => ordered[k]),
    p99: percentileUsAsMs(n, 99, (k) => ordered[k]),
  };
}

const PERCENTILES = [50, 90, 95, 99];

/** The ranks {@link percentileUsAsMs} reads for the summary's percentiles of n samples, ascending. */
function percentileRanks(n: number): number[] {
  const ks: number[] = [];
  for (const p of PERCENTILES) {
    const lo = Math.floor((p / 100) * (n - 1));
    ks.push(lo, Math.min(lo + 1, n - 1));
  }
  return ks;
}

/** A weighted multiset of µs values: distinct values ascending, each with its count (> 0). */
export interface WeightedSample {
  /** The distinct values (µs), ascending. */
  values: Float64Array;
  /** How many times each value occurs. */
  counts: Float64Array;
}

/**
 * The entries of `counts` (value in µs -> count) sorted by value. A typed array sorts natively,
 * without a comparator call per comparison; a NaN value (which no order ranks) keeps the
 * entries in map order, as a comparator sort would mostly leave them.
 */
export function sortedWeighted(counts: ReadonlyMap<number, number>): WeightedSample {
  const values = new Float64Array(counts.size);
  let i = 0;
  let nan = false;
  for (const v of counts.keys()) {
    values[i++] = v;
    if (Number.isNaN(v)) nan = true;
  }
  if (nan) {
    const inOrder = [...counts.keys()].sort((a, b) => a - b);
    return { values: Float64Array.from(inOrder), counts: Float64Array.from(inOrder, (v) => counts.get(v)!) };
  }
  // A map's keys are distinct and never -0 (it stores -0 as 0), so the order is total.
  values.sort();
  const out = new Float64Array(values.length);
  for (let k = 0; k < values.length; k++) out[k] = counts.get(values[k])!;
  return { values, counts: out };
}

/**
 * The union of weighted samples, counts of equal values added: the pooled sample's sorted
 * entries. The samples must hold no NaN, which no order ranks (ITLs are finite step times).
 */
export function mergeWeighted(samples: readonly WeightedSample[]): WeightedSample {
  if (samples.length === 0) return { values: new Float64Array(0), counts: new Float64Array(0) };
  let level = samples.slice();
  // Pairwise merges of sorted runs, log2(samples) passes over the entries.
  while (level.length > 1) {
    const next: WeightedSample[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) next.push(mergeTwo(level[i], level[i + 1]));
    if (level.length % 2 === 1) next.push(level[level.length - 1]);
    level = next;
  }
  return level[0];
}

function mergeTwo(a: WeightedSample, b: WeightedSample): WeightedSample {
  const av = a.values;
  const bv = b.values;
  const values = new Float64Array(av.length + bv.length);
  const counts = new Float64Array(av.length + bv.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < av.length && j < bv.length) {
    const x = av[i];
    const y = bv[j];
    if (x < y) {
      values[n] = x;
      counts[n++] = a.counts[i++];
    } else if (y < x) {
      values[n] = y;
      counts[n++] = b.counts[j++];
    } else {
      values[n] = x;
      counts[n++] = a.counts[i++] + b.counts[j++];
    }
  }
  for (; i < av.length; i++, n++) {
    values[n] = av[i];
    counts[n] = a.counts[i];
  }
  for (; j < bv.length; j++, n++) {
    values[n] = bv[j];
    counts[n] = b.counts[j];
  }
  return { values: values.subarray(0, n), counts: counts.subarray(0, n) };
}

/**
 * The same summary over a weighted multiset (value in µs -> count), used for ITL where every
 * decoding request of a step shares one value, so storing one entry per token is wasteful.
 */
export function summarizeWeightedUsAsMs(counts: ReadonlyMap<number, number>): Distribution {
  return summarizeSortedWeightedUsAsMs(sortedWeighted(counts));
}

/** {@link summarizeWeightedUsAsMs} of a sample already sorted ({@link sortedWeighted}, {@link mergeWeighted}). */
export function summarizeSortedWeightedUsAsMs(sample: WeightedSample): Distribution {
  const { values, counts } = sample;
  const m = values.length;
  // Running counts: cum[i] samples are at most values[i]. The sum runs in ascending order.
  const cum = new Float64Array(m);
  let n = 0;
  let sum = 0;
  for (let i = 0; i < m; i++) {
    const c = counts[i];
    n += c;
    sum += values[i] * c;
    cum[i] = n;
  }
  if (n === 0) return { count: 0, mean: 0, min: 0, max: 0, p50: 0, p90: 0, p95: 0, p99: 0 };
  // k-th order statistic (0-based) in µs.
  const at = (k: number): number => {
    let lo = 0;
    let hi = m - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] > k) hi = mid;
      else lo = mid + 1;
    }
    return values[lo];
  };
  return {
    count: n,
    mean: sum / n / 1000,
    min: values[0] / 1000,
    max: values[m - 1] / 1000,
    p50: percentileUsAsMs(n, 50, at),
    p90: percentileUsAsMs(n, 90, at),
    p95: percentileUsAsMs(n, 95, at),
    p99: percentileUsAsMs(n, 99, at),
  };
}
