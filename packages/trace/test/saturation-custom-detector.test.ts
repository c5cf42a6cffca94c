import type { PostHocSaturationDetector, SaturationEvent, SaturationVerdict } from '@blis/policies';
import { describe, expect, it } from 'vitest';
import { VerdictTraceWriter, createSaturationDetector, replaySaturation, saturationEvents } from '../src/index.js';

// A detector of one's own, written against @blis/policies alone, runs in the same replay as the
// built-in ones and is written to the same report.

/** OVERLOADED while more than `limit` requests are in flight, STABLE otherwise. */
class InFlightLimit implements PostHocSaturationDetector {
  readonly name = 'in-flight-limit';
  private inFlight = 0;
  constructor(private readonly limit: number) {}
  observe(e: SaturationEvent): void {
    this.inFlight += e.kind === 'arrival' ? 1 : -1;
  }
  detect(): SaturationVerdict {
    return { level: this.inFlight > this.limit ? 'OVERLOADED' : 'STABLE', score: this.inFlight / this.limit, confidence: 1, signals: { limit: this.limit, in_flight: this.inFlight } };
  }
  reset(): void {
    this.inFlight = 0;
  }
}

describe('a custom post-hoc detector', () => {
  // Ten requests arriving 1 ms apart, each taking 50 ms: up to ten in flight at once.
  const events = saturationEvents(Array.from({ length: 10 }, (_, i) => ({ requestId: `request_${i}`, arrivalUs: i * 1000, e2eUs: 50_000 })));

  it('is voted on like the built-in ones, its label keyed by its name', () => {
    const labels = replaySaturation(events, [createSaturationDetector('threshold', { thresholdMs: 10 }), new InFlightLimit(3)], { finalWindowUs: 1_000_000 });
    // Over the whole run: 7 of its 20 verdicts are STABLE (in flight 1..3, then 3..1 while draining), 13 OVERLOADED.
    expect(labels).toEqual({ 'in-flight-limit': 'OVERLOADED', threshold: 'OVERLOADED' });
    expect(replaySaturation(events, [new InFlightLimit(10)], { finalWindowUs: 1_000_000 })).toEqual({ 'in-flight-limit': 'STABLE' });
  });

  it('its verdicts reach the report with their signals sorted', () => {
    let text = '';
    const w = new VerdictTraceWriter((s) => {
      text += s;
    });
    const d = [new InFlightLimit(3)];
    w.begin(replaySaturation(events, d, { finalWindowUs: 0 }));
    replaySaturation(events, d, { finalWindowUs: 0, onVerdict: (t, n, v) => w.record(t, n, v) });
    w.end();
    const report = JSON.parse(text) as { final: Record<string, string>; trace: { detector: string; result: { signals: Record<string, number> } }[] };
    expect(report.final).toEqual({ 'in-flight-limit': 'STABLE' });
    expect(report.trace).toHaveLength(20);
    expect(Object.keys(report.trace[0].result.signals)).toEqual(['in_flight', 'limit']);
  });

  it('two detectors of one name are refused: labels are keyed by name', () => {
    expect(() => replaySaturation(events, [new InFlightLimit(1), new InFlightLimit(2)], { finalWindowUs: 0 })).toThrow(/two detectors are named "in-flight-limit"/);
  });
});
