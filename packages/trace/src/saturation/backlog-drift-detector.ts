import type { PostHocSaturationDetector, SaturationEvent, SaturationLevel, SaturationVerdict } from '@blis/policies';

/** BLIS's default bucket width: 60 s. */
export const DEFAULT_BACKLOG_DRIFT_WINDOW_US = 60_000_000;
/** A slope above this many noise floors is OVERLOADED, between one and this many BACKLOGGED. */
export const BACKLOG_DRIFT_SLOPE_K = 3;

/**
 * BLIS's `backlog-drift` detector: the requests in flight (arrivals − completions) sampled at the
 * end of each bucket of `windowUs` (an empty bucket repeats the previous sample), and the
 * least-squares slope of those samples against the bucket's position 0, 1, 2, ... Slope at or
 * below the noise floor `1/√arrivals`: STABLE; up to 3 noise floors: BACKLOGGED; above:
 * OVERLOADED. Score `min(1, max(0, slope) / (3 · noise floor))`, confidence `min(1, arrivals / 20)`.
 */
export class BacklogDriftDetector implements PostHocSaturationDetector {
  readonly name = 'backlog-drift';
  private arrivals = 0;
  private completions = 0;
  /** Buckets sampled so far, the last one still open. */
  private buckets = 0;
  private bucketIndex = 0;
  private last = 0;
  // Sums over the closed buckets; in-flight counts and positions are integers, so these are exact.
  private sumY = 0;
  private sumXY = 0;

  constructor(readonly windowUs: number = DEFAULT_BACKLOG_DRIFT_WINDOW_US) {}

  observe(event: SaturationEvent): void {
    if (event.kind === 'arrival') this.arrivals++;
    else this.completions++;
    const index = this.windowUs > 0 ? Math.floor(event.timestampUs / this.windowUs) : 0;
    const inFlight = this.arrivals - this.completions;
    if (this.buckets === 0) {
      this.buckets = 1;
      this.bucketIndex = index;
    } else if (index > this.bucketIndex) {
      this.close(this.last);
      for (let gap = this.bucketIndex + 1; gap < index; gap++) this.close(this.last);
      this.bucketIndex = index;
    }
    // An event of an earlier bucket (out of order) folds into the open one, as in BLIS.
    this.last = inFlight;
  }

  /** Closes the open bucket with `value` and opens the next. */
  private close(value: number): void {
    const x = this.buckets - 1;
    this.sumY += value;
    this.sumXY += x * value;
    this.buckets++;
  }

  detect(): SaturationVerdict {
    if (this.arrivals === 0) return { level: 'STABLE', score: 0, confidence: 0, signals: {} };
    const noiseFloor = 1 / Math.sqrt(this.arrivals);
    const slope = this.slope();
    const level: SaturationLevel = slope <= noiseFloor ? 'STABLE' : slope <= BACKLOG_DRIFT_SLOPE_K * noiseFloor ? 'BACKLOGGED' : 'OVERLOADED';
    const denom = BACKLOG_DRIFT_SLOPE_K * noiseFloor;
    return {
      level,
      score: denom > 0 ? Math.min(1, Math.max(0, slope) / denom) : 0,
      confidence: Math.min(1, this.arrivals / 20),
      signals: {
        arrivals: this.arrivals,
        completions: this.completions,
        in_flight: this.arrivals - this.completions,
        noise_floor: noiseFloor,
        running_slope: slope,
      },
    };
  }

  /** The least-squares slope of the samples against 0, 1, ..., n−1; 0 below two samples. */
  private slope(): number {
    const n = this.buckets;
    if (n < 2) return 0;
    const x = n - 1;
    const sumY = this.sumY + this.last;
    const sumXY = this.sumXY + x * this.last;
    // Σx and Σx² over 0..n−1, in closed form (exact integers, as BLIS's loop sums them).
    const sumX = (n * (n - 1)) / 2;
    const sumXX = ((n - 1) * n * (2 * n - 1)) / 6;
    const denom = n * sumXX - sumX * sumX;
    if (denom === 0) return 0;
    return (n * sumXY - sumX * sumY) / denom;
  }

  reset(): void {
    this.arrivals = 0;
    this.completions = 0;
    this.buckets = 0;
    this.bucketIndex = 0;
    this.last = 0;
    this.sumY = 0;
    this.sumXY = 0;
  }
}
