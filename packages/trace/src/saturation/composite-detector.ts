import type { PostHocSaturationDetector, SaturationEvent, SaturationLevel, SaturationVerdict } from '@blis/policies';
import { SequentialSum } from './sequential-sum.js';

/** Completions below which the latency trend is reported but never trusted (BLIS's quartile filter). */
export const COMPOSITE_MIN_TREND_SAMPLES = 20;

/**
 * BLIS's `composite` detector, which has no parameters. Two signals over the events so far:
 * - rate deficit `max(0, 1 − completions / arrivals)`;
 * - latency trend: the E2E latencies in completion order split in halves,
 *   `max(0, (mean₂ − mean₁) / mean₁)`, trusted only from 20 completions on and only when the
 *   means of the four quarters rise strictly (the last quarter takes the remainder).
 * Score `max(deficit, min(trend, 1))` against the noise floor `1/√arrivals`: below it STABLE; else
 * OVERLOADED when the trusted trend exceeds it, BACKLOGGED otherwise. Confidence
 * `min(1, arrivals / 20)`.
 */
export class CompositeDetector implements PostHocSaturationDetector {
  readonly name = 'composite';
  private arrivals = 0;
  /** E2E latencies in completion order (events arrive in time order, so this is BLIS's sorted list). */
  private readonly latencies: number[] = [];
  private readonly sums = Array.from({ length: 6 }, () => new SequentialSum());

  observe(event: SaturationEvent): void {
    if (event.kind === 'arrival') this.arrivals++;
    else this.latencies.push(event.latencyMs);
  }

  detect(): SaturationVerdict {
    const arrivals = this.arrivals;
    if (arrivals === 0) return { level: 'STABLE', score: 0, confidence: 0, signals: {} };
    const l = this.latencies;
    const n = l.length;
    const deficit = Math.max(0, 1 - n / arrivals);
    const [first, second, q1s, q2s, q3s, q4s] = this.sums;
    let trendRaw = 0;
    let trend = 0;
    let monotone = false;
    if (n >= 2) {
      const mid = Math.floor(n / 2);
      const m1 = first.meanOf(l, 0, mid);
      const m2 = second.meanOf(l, mid, n);
      if (m1 > 0) trendRaw = Math.max(0, (m2 - m1) / m1);
      if (n >= COMPOSITE_MIN_TREND_SAMPLES) {
        const q = Math.floor(n / 4);
        const q1 = q1s.meanOf(l, 0, q);
        const q2 = q2s.meanOf(l, q, 2 * q);
        const q3 = q3s.meanOf(l, 2 * q, 3 * q);
        const q4 = q4s.meanOf(l, 3 * q, n);
        monotone = q1 < q2 && q2 < q3 && q3 < q4;
        if (monotone) trend = trendRaw;
      }
    }
    const score = Math.max(deficit, Math.min(trend, 1));
    const noiseFloor = 1 / Math.sqrt(arrivals);
    const level: SaturationLevel = score < noiseFloor ? 'STABLE' : trend > noiseFloor ? 'OVERLOADED' : 'BACKLOGGED';
    return {
      level,
      score,
      confidence: Math.min(1, arrivals / 20),
      signals: {
        latency_trend: Math.min(trend, 1),
        latency_trend_raw: Math.min(trendRaw, 1),
        noise_floor: noiseFloor,
        quartile_monotone: monotone ? 1 : 0,
        rate_deficit: deficit,
      },
    };
  }

  reset(): void {
    this.arrivals = 0;
    this.latencies.length = 0;
    for (const s of this.sums) s.reset();
  }
}
