/**
 * The k-th smallest values of a sample without sorting all of it: a summary needs eight order
 * statistics at most (each percentile's two closest ranks), and selecting them is linear where
 * a sort of a run's hundred thousand latencies is not.
 */

/**
 * Rearranges `a` so that, for each k of `ks` (ascending, within [0, a.length)), `a[k]` holds the
 * value a full ascending sort would put there. Values must be comparable with `<` (no NaN) and
 * not include -0 (a sort would put it before 0; selection cannot tell them apart).
 */
export function selectOrderStatistics(a: Float64Array, ks: ArrayLike<number>): void {
  let from = 0;
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i];
    if (k < from) continue; // a repeated rank: already in place
    select(a, from, a.length - 1, k);
    // Everything before k is now at most a[k]: the next, larger rank lies after it.
    from = k + 1;
  }
}

/** Quickselect of rank k within a[lo..hi]; a range that resists partitioning is sorted instead. */
function select(a: Float64Array, lo: number, hi: number, k: number): void {
  let budget = 2 * Math.ceil(Math.log2(hi - lo + 2)) + 8;
  while (hi > lo) {
    if (hi - lo < 16 || budget-- === 0) {
      a.subarray(lo, hi + 1).sort();
      return;
    }
    // Median of three as the pivot, then Hoare's partition (equal values split both ways, so a
    // sample full of repeats still halves).
    const mid = (lo + hi) >>> 1;
    const x = a[lo];
    const y = a[mid];
    const pivot = Math.max(Math.min(x, y), Math.min(Math.max(x, y), a[hi]));
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    // [lo, j] <= pivot, (j, i) == pivot, [i, hi] >= pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}
