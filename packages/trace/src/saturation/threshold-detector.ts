import type { PostHocSaturationDetector, SaturationEvent, SaturationVerdict } from '@blis/policies';

/** BLIS's default mean-E2E threshold, in ms. */
export const DEFAULT_THRESHOLD_MS = 5000;

/**
 * BLIS's `threshold` detector: the mean E2E latency of the completions so far against a
 * threshold. Binary: STABLE below it (score `0.5 · mean / threshold`), OVERLOADED at or above it
 * (score `0.75 + min(0.25, (mean − threshold) / threshold / 4)`); confidence `1 − 1/√(n+1)` over
 * n completions. Before the first completion: STABLE, score and confidence 0, no signals.
 */
export class ThresholdDetector implements PostHocSaturationDetector {
  readonly name = 'threshold';
  private completions = 0;
  // Summed in completion order, as BLIS sums its list: the same float for the same events.
  private latencySum = 0;

  constructor(readonly thresholdMs: number = DEFAULT_THRESHOLD_MS) {}

  observe(event: SaturationEvent): void {
    if (event.kind !== 'completion') return;
    this.completions++;
    this.latencySum += event.latencyMs;
  }

  detect(): SaturationVerdict {
    const n = this.completions;
    if (n === 0) return { level: 'STABLE', score: 0, confidence: 0, signals: {} };
    const mean = this.latencySum / n;
    const t = this.thresholdMs;
    const stable = mean < t;
    return {
      level: stable ? 'STABLE' : 'OVERLOADED',
      score: stable ? 0.5 * (mean / t) : 0.75 + Math.min(0.25, (mean - t) / t / 4),
      confidence: 1 - 1 / Math.sqrt(n + 1),
      signals: { mean_e2e: mean, threshold: t },
    };
  }

  reset(): void {
    this.completions = 0;
    this.latencySum = 0;
  }
}
