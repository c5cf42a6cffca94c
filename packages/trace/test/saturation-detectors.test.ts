import type { SaturationEvent } from '@blis/policies';
import { describe, expect, it } from 'vitest';
import { BacklogDriftDetector, CompositeDetector, FinalVote, ThresholdDetector } from '../src/index.js';
import { finalLabel } from '../src/internal.js';

// Each detector's formula on events worked out by hand (docs/saturation.md gives the formulas).

const arrival = (t: number, id = `request_${t}`): SaturationEvent => ({ timestampUs: t, kind: 'arrival', requestId: id, latencyMs: 0 });
const completion = (t: number, latencyMs: number, id = `request_${t}`): SaturationEvent => ({ timestampUs: t, kind: 'completion', requestId: id, latencyMs });

describe('threshold: mean E2E against the threshold', () => {
  it('before any completion: STABLE, score and confidence 0, no signals', () => {
    const d = new ThresholdDetector(100);
    d.observe(arrival(0));
    expect(d.detect()).toEqual({ level: 'STABLE', score: 0, confidence: 0, signals: {} });
  });

  it('one completion of 40 ms under 100 ms: STABLE, score 0.5·40/100 = 0.2, confidence 1 − 1/√2', () => {
    const d = new ThresholdDetector(100);
    d.observe(completion(5, 40));
    expect(d.detect()).toEqual({ level: 'STABLE', score: 0.2, confidence: 1 - 1 / Math.SQRT2, signals: { mean_e2e: 40, threshold: 100 } });
  });

  it('a mean exactly at the threshold is OVERLOADED with score 0.75; confidence 1 − 1/√3', () => {
    const d = new ThresholdDetector(100);
    d.observe(completion(5, 50));
    d.observe(completion(6, 150));
    const v = d.detect();
    expect(v.level).toBe('OVERLOADED');
    expect(v.score).toBe(0.75);
    expect(v.confidence).toBeCloseTo(0.42264973081037427, 15);
  });

  it('a mean of 3× the threshold caps the score at 1 (0.75 + min(0.25, 2/4))', () => {
    const d = new ThresholdDetector(100);
    d.observe(completion(5, 300));
    expect(d.detect().score).toBe(1);
  });

  it('a mean 20% above the threshold scores 0.75 + 0.2/4 = 0.8', () => {
    const d = new ThresholdDetector(1000);
    d.observe(completion(5, 1200));
    expect(d.detect().score).toBeCloseTo(0.8, 15);
  });

  it('reset forgets the completions', () => {
    const d = new ThresholdDetector(100);
    d.observe(completion(5, 300));
    d.reset();
    expect(d.detect().level).toBe('STABLE');
  });
});

describe('composite: rate deficit and the quartile-checked latency trend', () => {
  it('4 arrivals, 2 completions of 100 and 300 ms: deficit 0.5 equals the noise floor 1/√4, no trusted trend: BACKLOGGED', () => {
    const d = new CompositeDetector();
    for (const t of [0, 1, 2, 3]) d.observe(arrival(t));
    d.observe(completion(10, 100, 'a'));
    d.observe(completion(11, 300, 'b'));
    expect(d.detect()).toEqual({
      level: 'BACKLOGGED',
      score: 0.5,
      confidence: 0.2,
      // The raw trend (300 − 100)/100 = 2 is reported capped at 1; under 20 completions it is not trusted.
      signals: { latency_trend: 0, latency_trend_raw: 1, noise_floor: 0.5, quartile_monotone: 0, rate_deficit: 0.5 },
    });
  });

  it('20 requests, all completed, latencies 1..20 ms rising: quarter means 3 < 8 < 13 < 18, trend (15.5 − 5.5)/5.5: OVERLOADED', () => {
    const d = new CompositeDetector();
    for (let i = 0; i < 20; i++) d.observe(arrival(i));
    for (let i = 0; i < 20; i++) d.observe(completion(100 + i, i + 1, `r${String(i).padStart(2, '0')}`));
    const v = d.detect();
    expect(v.level).toBe('OVERLOADED');
    expect(v.score).toBe(1);
    expect(v.confidence).toBe(1);
    expect(v.signals.quartile_monotone).toBe(1);
    expect(v.signals.rate_deficit).toBe(0);
    expect(v.signals.latency_trend).toBe(1);
    expect(v.signals.noise_floor).toBeCloseTo(1 / Math.sqrt(20), 15);
  });

  it('the same latencies not rising by quarter: the trend is vetoed, and with no deficit the run is STABLE', () => {
    const d = new CompositeDetector();
    const lat = [1, 2, 3, 4, 5, 20, 20, 20, 20, 20, 6, 7, 8, 9, 10, 30, 30, 30, 30, 30];
    for (let i = 0; i < 20; i++) d.observe(arrival(i));
    for (const [i, l] of lat.entries()) d.observe(completion(100 + i, l, `r${String(i).padStart(2, '0')}`));
    const v = d.detect();
    expect(v.signals.quartile_monotone).toBe(0);
    expect(v.signals.latency_trend).toBe(0);
    expect(v.signals.latency_trend_raw).toBeGreaterThan(0);
    expect(v.level).toBe('STABLE');
  });

  it('the first arrival alone is BACKLOGGED: deficit 1 is not below the noise floor 1', () => {
    const d = new CompositeDetector();
    d.observe(arrival(0));
    expect(d.detect().level).toBe('BACKLOGGED');
  });
});

describe('backlog-drift: least-squares slope of in-flight per bucket', () => {
  it('buckets ending at 2, 3, 4 in flight: slope 1, noise floor 1/√4 = 0.5 < 1 <= 1.5: BACKLOGGED, score 1/1.5', () => {
    const d = new BacklogDriftDetector(10);
    for (const t of [0, 1, 10, 25]) d.observe(arrival(t));
    const v = d.detect();
    expect(v.level).toBe('BACKLOGGED');
    expect(v.signals).toEqual({ arrivals: 4, completions: 0, in_flight: 4, noise_floor: 0.5, running_slope: 1 });
    expect(v.score).toBeCloseTo(2 / 3, 15);
    expect(v.confidence).toBe(0.2);
  });

  it('empty buckets repeat the last sample: 1, 1, 1, 2 has slope 0.3, under the floor 1/√2: STABLE', () => {
    const d = new BacklogDriftDetector(10);
    d.observe(arrival(0));
    d.observe(arrival(35));
    const v = d.detect();
    expect(v.signals.running_slope).toBeCloseTo(0.3, 15);
    expect(v.level).toBe('STABLE');
    expect(v.score).toBeCloseTo(0.3 / (3 / Math.SQRT2), 15);
  });

  it('a steep rise (0 → 9 in flight over two buckets) against 10 arrivals is OVERLOADED with score 1', () => {
    const d = new BacklogDriftDetector(10);
    d.observe(arrival(0));
    d.observe(completion(1, 1, 'request_0'));
    for (let i = 0; i < 9; i++) d.observe(arrival(10 + i, `x${i}`));
    const v = d.detect();
    // Samples 0, 9: slope 9 > 3/√10.
    expect(v.signals.running_slope).toBe(9);
    expect(v.level).toBe('OVERLOADED');
    expect(v.score).toBe(1);
  });

  it('one bucket: slope 0, STABLE', () => {
    const d = new BacklogDriftDetector(1_000_000);
    for (let i = 0; i < 50; i++) d.observe(arrival(i));
    expect(d.detect().level).toBe('STABLE');
  });
});

describe('final label: plurality over the final window, ties to the more severe level', () => {
  it('2 BACKLOGGED and 2 OVERLOADED: OVERLOADED', () => {
    const v = new FinalVote();
    for (const l of ['STABLE', 'BACKLOGGED', 'BACKLOGGED', 'OVERLOADED', 'OVERLOADED'] as const) v.add(l);
    expect(v.label()).toBe('OVERLOADED');
  });

  it('the window is inclusive at its start and anchored at the last verdict', () => {
    const verdicts = [
      { timestampUs: 0, level: 'OVERLOADED' as const },
      { timestampUs: 0, level: 'OVERLOADED' as const },
      { timestampUs: 10, level: 'STABLE' as const },
      { timestampUs: 20, level: 'STABLE' as const },
    ];
    expect(finalLabel(verdicts, 9)).toBe('STABLE');
    // From t = 0 on: 2 OVERLOADED against 2 STABLE, the tie goes up.
    expect(finalLabel(verdicts, 20)).toBe('OVERLOADED');
    expect(finalLabel([], 20)).toBe('STABLE');
  });
});
