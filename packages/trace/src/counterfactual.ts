import type { CandidateEntry } from './records.js';

/** A NaN score ranks below everything, as an unscorable instance would. */
function rankValue(v: number): number {
  return Number.isNaN(v) ? Number.NEGATIVE_INFINITY : v;
}

/**
 * BLIS's counterfactual regret of one routing decision: the best candidate's score minus the
 * chosen one's, clamped at 0. Zero whenever the policy picked an argmax (weighted routing).
 */
export function regretOf(scores: ArrayLike<number>, chosen: number): number {
  let best = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < scores.length; i++) {
    const v = rankValue(scores[i]);
    if (v > best) best = v;
  }
  const r = best - rankValue(scores[chosen]);
  // Also folds -0 (0 - 0 of negated loads) and NaN (no finite score at all) into +0.
  if (!(r > 0)) return 0;
  return r;
}

/**
 * The `k` best candidates, by score descending, ties to the lower position (the order BLIS's
 * argmax uses), each with its per-scorer breakdown. O(n k): k is small.
 */
export function topCandidates(scores: ArrayLike<number>, k: number, breakdown: Readonly<Record<string, ArrayLike<number>>> | undefined): CandidateEntry[] {
  const n = scores.length;
  const m = Math.min(k, n);
  const taken = new Uint8Array(n);
  const out: CandidateEntry[] = [];
  for (let r = 0; r < m; r++) {
    let best = -1;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i++) {
      if (taken[i]) continue;
      const v = rankValue(scores[i]);
      if (best < 0 || v > bestValue) {
        best = i;
        bestValue = v;
      }
    }
    taken[best] = 1;
    const by: Record<string, number> = {};
    if (breakdown !== undefined) for (const name in breakdown) by[name] = breakdown[name][best] + 0;
    out.push({ i: best, s: scores[best] + 0, by });
  }
  return out;
}
