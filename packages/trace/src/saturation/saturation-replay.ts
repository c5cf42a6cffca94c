import type { PostHocSaturationDetector, SaturationEvent, SaturationLevel, SaturationVerdict } from '@blis/policies';
import { FinalVote } from './final-label.js';

/** Told every verdict, in trace order: per event, each detector's in the order given. */
export type VerdictListener = (timestampUs: number, detector: string, verdict: SaturationVerdict) => void;

export interface SaturationReplayOptions {
  /** The final window in µs: the verdicts at or after the last event's time minus this vote. */
  finalWindowUs: number;
  /** Receives every verdict (the verdict trace); without it only the final window's are computed. */
  onVerdict?: VerdictListener;
}

/**
 * Replays `events` (in {@link saturationEvents}' order) once through every detector, each reset
 * first, and returns each detector's final label by name, names sorted (BLIS's JSON order).
 * No events: no labels, as BLIS then prints none.
 */
export function replaySaturation(
  events: readonly SaturationEvent[],
  detectors: readonly PostHocSaturationDetector[],
  options: SaturationReplayOptions,
): Record<string, SaturationLevel> {
  const names = detectors.map((d) => d.name);
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated !== undefined) throw new Error(`saturation replay: two detectors are named ${JSON.stringify(repeated)}; labels are keyed by name`);
  for (const d of detectors) d.reset();
  if (events.length === 0) return {};
  // Events come sorted, so the last one is the latest: every detector's window ends there.
  const cutoff = events[events.length - 1].timestampUs - options.finalWindowUs;
  const votes = detectors.map(() => new FinalVote());
  const listener = options.onVerdict;
  for (const e of events) {
    const judged = listener !== undefined || e.timestampUs >= cutoff;
    for (let i = 0; i < detectors.length; i++) {
      const d = detectors[i];
      d.observe(e);
      if (!judged) continue;
      const verdict = d.detect();
      listener?.(e.timestampUs, d.name, verdict);
      if (e.timestampUs >= cutoff) votes[i].add(verdict.level);
    }
  }
  const labels: Record<string, SaturationLevel> = {};
  for (const i of names.map((_, k) => k).sort((a, b) => (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0))) labels[names[i]] = votes[i].label();
  return labels;
}
