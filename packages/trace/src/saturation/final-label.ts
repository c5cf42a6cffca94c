import { SATURATION_LEVELS, type SaturationLevel } from '@blis/policies';

/**
 * BLIS's final label of one detector: the plurality of its verdicts in the final window (every
 * verdict at or after the last one's time minus the window), a tie going to the more severe
 * level; STABLE when there is none. Counts are fed one verdict at a time.
 */
export class FinalVote {
  private readonly counts = [0, 0, 0];

  add(level: SaturationLevel): void {
    const i = SATURATION_LEVELS.indexOf(level);
    // A level outside the three (a custom detector's mistake) is not counted, as in BLIS.
    if (i >= 0) this.counts[i]++;
  }

  label(): SaturationLevel {
    let best: SaturationLevel = 'STABLE';
    let bestCount = 0;
    for (let i = SATURATION_LEVELS.length - 1; i >= 0; i--) {
      if (this.counts[i] > bestCount) {
        bestCount = this.counts[i];
        best = SATURATION_LEVELS[i];
      }
    }
    return best;
  }
}

/** The final label of a list of verdicts (time in µs, level), by {@link FinalVote}'s rule. */
export function finalLabel(verdicts: readonly { timestampUs: number; level: SaturationLevel }[], windowUs: number): SaturationLevel {
  if (verdicts.length === 0) return 'STABLE';
  let last = verdicts[0].timestampUs;
  for (const v of verdicts) if (v.timestampUs > last) last = v.timestampUs;
  const vote = new FinalVote();
  for (const v of verdicts) if (v.timestampUs >= last - windowUs) vote.add(v.level);
  return vote.label();
}
