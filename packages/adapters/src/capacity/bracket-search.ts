/**
 * Bracketing then bisection over a monotone pass/fail predicate: the largest passing rate (rate
 * passes below some threshold) or the fewest passing instances (passes above some threshold).
 * Both start where the user's configuration is, so a good guess costs few probes.
 */

/**
 * How a search ended. `found`: a passing and a failing value bracket the answer. At a bound the
 * bracket is open: `upper-bound-passes` (the rate meets the targets even at the maximum: the
 * answer is at least that), `lower-bound-fails` (not even the minimum rate meets them: no
 * answer), `lower-bound-passes` (the fewest instances allowed already meet them: that is the
 * answer), `upper-bound-fails` (even the most instances allowed miss them: no answer).
 */
export type SearchStatus = 'found' | 'upper-bound-passes' | 'lower-bound-fails' | 'lower-bound-passes' | 'upper-bound-fails';

export interface SearchOutcome {
  status: SearchStatus;
  /** The largest passing rate or the fewest passing instances seen; null when nothing passed. */
  answer: number | null;
  /** The passing value next to the threshold (null when none passed). */
  passing: number | null;
  /** The failing value next to the threshold (null when none failed). */
  failing: number | null;
}

export type Probe = (value: number) => Promise<boolean>;

/**
 * The largest value in [min, max] that passes, assuming passing is monotone (passes below a
 * threshold). Grows ×2 from `start` until a failure, or shrinks ÷2 until a pass, then bisects
 * until (failing − passing) ≤ tolerance × failing, so the answer is within `tolerance` of the
 * threshold, relative to the upper end.
 */
export async function largestPassing(start: number, min: number, max: number, tolerance: number, probe: Probe): Promise<SearchOutcome> {
  const first = Math.min(Math.max(start, min), max);
  let passing: number;
  let failing: number;
  if (await probe(first)) {
    passing = first;
    for (;;) {
      if (passing >= max) return { status: 'upper-bound-passes', answer: max, passing: max, failing: null };
      const next = Math.min(passing * 2, max);
      if (!(await probe(next))) {
        failing = next;
        break;
      }
      passing = next;
    }
  } else {
    failing = first;
    for (;;) {
      if (failing <= min) return { status: 'lower-bound-fails', answer: null, passing: null, failing: min };
      const next = Math.max(failing / 2, min);
      if (await probe(next)) {
        passing = next;
        break;
      }
      failing = next;
    }
  }
  while (failing - passing > tolerance * failing) {
    const mid = (passing + failing) / 2;
    if (await probe(mid)) passing = mid;
    else failing = mid;
  }
  return { status: 'found', answer: passing, passing, failing };
}

/**
 * The smallest integer in [min, max] that passes, assuming passing is monotone (passes above a
 * threshold). Shrinks ÷2 (rounded down) from `start` until a failure or grows ×2 until a pass,
 * then bisects to adjacent integers: the answer is exact.
 */
export async function smallestPassingInteger(start: number, min: number, max: number, probe: Probe): Promise<SearchOutcome> {
  const first = Math.min(Math.max(Math.round(start), min), max);
  let passing: number;
  let failing: number;
  if (await probe(first)) {
    passing = first;
    for (;;) {
      if (passing <= min) return { status: 'lower-bound-passes', answer: min, passing: min, failing: null };
      const next = Math.max(Math.floor(passing / 2), min);
      if (!(await probe(next))) {
        failing = next;
        break;
      }
      passing = next;
    }
  } else {
    failing = first;
    for (;;) {
      if (failing >= max) return { status: 'upper-bound-fails', answer: null, passing: null, failing: max };
      const next = Math.min(failing * 2, max);
      if (await probe(next)) {
        passing = next;
        break;
      }
      failing = next;
    }
  }
  while (passing - failing > 1) {
    const mid = Math.floor((passing + failing) / 2);
    if (await probe(mid)) passing = mid;
    else failing = mid;
  }
  return { status: 'found', answer: passing, passing, failing };
}
