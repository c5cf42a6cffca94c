import type { SaturationEvent, SaturationLevel } from '@blis/policies';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CompletedRequestTimes,
  SATURATION_DETECTOR_NAMES,
  ThresholdDetector,
  createSaturationDetector,
  replaySaturation,
  saturationEvents,
} from '../src/index.js';
import { finalLabel } from '../src/internal.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// Invariants of the post-hoc saturation analysis over generated request sets.
// BLIS_PROPERTY_RUNS scales the cases; BLIS_PROPERTY_SEED replays a failing seed (printed on failure).

const RUNS = Number(process.env.BLIS_PROPERTY_RUNS ?? propertyRuns(200));
const SEED = process.env.BLIS_PROPERTY_SEED !== undefined ? Number(process.env.BLIS_PROPERTY_SEED) : Date.now() | 0;

function check<T>(name: string, arb: fc.Arbitrary<T>, predicate: (v: T) => void): void {
  try {
    fc.assert(fc.property(arb, predicate), { numRuns: RUNS, seed: SEED });
  } catch (e) {
    console.error(`saturation-properties "${name}": fast-check seed ${SEED} (BLIS_PROPERTY_SEED=${SEED} to replay)`);
    throw e;
  }
}

/** Completed requests with ids request_0.., arrivals and E2Es in µs (ties on purpose: small ranges). */
const requestsArb = fc
  .array(fc.record({ arrivalUs: fc.integer({ min: 0, max: 5_000_000 }), e2eUs: fc.integer({ min: 1, max: 3_000_000 }) }), { minLength: 0, maxLength: 120 })
  .map((rs) => rs.map((r, i): CompletedRequestTimes => ({ requestId: `request_${i}`, ...r })));

const SEVERITY: Record<SaturationLevel, number> = { STABLE: 0, BACKLOGGED: 1, OVERLOADED: 2 };
const allDetectors = (thresholdMs = 1000, windowUs = 500_000) => SATURATION_DETECTOR_NAMES.map((n) => createSaturationDetector(n, { thresholdMs, backlogDriftWindowUs: windowUs }));

describe('saturation analysis properties', () => {
  it('events: two per request, sorted by (time, arrival first, id), each completion after its arrival', () => {
    check('events', requestsArb, (rs) => {
      const ev = saturationEvents(rs);
      expect(ev.length).toBe(2 * rs.length);
      for (let i = 1; i < ev.length; i++) {
        const a = ev[i - 1];
        const b = ev[i];
        const order = a.timestampUs - b.timestampUs || (a.kind === b.kind ? (a.requestId < b.requestId ? -1 : 1) : a.kind === 'arrival' ? -1 : 1);
        expect(order).toBeLessThan(0);
      }
      const arrivalOf = new Map(ev.filter((e) => e.kind === 'arrival').map((e) => [e.requestId, e.timestampUs]));
      for (const e of ev) if (e.kind === 'completion') expect(e.timestampUs).toBeGreaterThanOrEqual(arrivalOf.get(e.requestId) ?? Number.NaN);
    });
  });

  it('labels with the verdict trace equal labels without it (only the final window is judged then), and equal the vote over the trace', () => {
    check('lazy labels', fc.tuple(requestsArb, fc.integer({ min: 0, max: 6_000_000 })), ([rs, windowUs]) => {
      const ev = saturationEvents(rs);
      const trace: { timestampUs: number; detector: string; level: SaturationLevel }[] = [];
      const eager = replaySaturation(ev, allDetectors(), { finalWindowUs: windowUs, onVerdict: (t, d, v) => trace.push({ timestampUs: t, detector: d, level: v.level }) });
      const lazy = replaySaturation(ev, allDetectors(), { finalWindowUs: windowUs });
      expect(lazy).toEqual(eager);
      expect(trace.length).toBe(ev.length * SATURATION_DETECTOR_NAMES.length);
      for (const name of SATURATION_DETECTOR_NAMES)
        if (ev.length > 0) expect(eager[name]).toBe(finalLabel(trace.filter((r) => r.detector === name), windowUs));
      expect(Object.keys(eager)).toEqual(ev.length === 0 ? [] : [...SATURATION_DETECTOR_NAMES].sort());
    });
  });

  it('a detector reused after reset gives the same verdicts (replay is deterministic)', () => {
    check('determinism', requestsArb, (rs) => {
      const ev = saturationEvents(rs);
      const dets = allDetectors();
      const first: unknown[] = [];
      const second: unknown[] = [];
      replaySaturation(ev, dets, { finalWindowUs: 30_000_000, onVerdict: (...v) => first.push(v) });
      replaySaturation(ev, dets, { finalWindowUs: 30_000_000, onVerdict: (...v) => second.push(v) });
      expect(second).toEqual(first);
    });
  });

  it('threshold: a workload whose every E2E is under the threshold is never labelled saturated, nor is any verdict', () => {
    check('threshold never', fc.tuple(requestsArb, fc.integer({ min: 3001, max: 100_000 })), ([rs, thresholdMs]) => {
      const levels: SaturationLevel[] = [];
      const labels = replaySaturation(saturationEvents(rs), [new ThresholdDetector(thresholdMs)], { finalWindowUs: 30_000_000, onVerdict: (_t, _d, v) => levels.push(v.level) });
      expect(levels.every((l) => l === 'STABLE')).toBe(true);
      if (rs.length > 0) expect(labels.threshold).toBe('STABLE');
    });
  });

  it('threshold: raising the threshold never makes a verdict or the label more severe', () => {
    check('threshold monotone', fc.tuple(requestsArb, fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 0, max: 6_000_000 })), ([rs, low, extra, windowUs]) => {
      const ev = saturationEvents(rs);
      const run = (t: number) => {
        const levels: number[] = [];
        const label = replaySaturation(ev, [new ThresholdDetector(t)], { finalWindowUs: windowUs, onVerdict: (_t, _d, v) => levels.push(SEVERITY[v.level]) }).threshold;
        return { levels, label };
      };
      const a = run(low);
      const b = run(low + extra);
      for (const [i, l] of a.levels.entries()) expect(b.levels[i]).toBeLessThanOrEqual(l);
      if (ev.length > 0) expect(SEVERITY[b.label]).toBeLessThanOrEqual(SEVERITY[a.label]);
    });
  });

  it('composite: requests served one at a time with equal latency are labelled STABLE from two requests on', () => {
    check('composite never', fc.tuple(fc.integer({ min: 2, max: 80 }), fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 1000 })), ([n, e2eUs, idle]) => {
      // Each request completes before the next arrives: the deficit is only ever 1/arrivals, under
      // the noise floor 1/√arrivals past the first, and equal latencies have no trend.
      const rs: CompletedRequestTimes[] = Array.from({ length: n }, (_, i) => ({ requestId: `request_${i}`, arrivalUs: i * (e2eUs + idle + 1), e2eUs }));
      const labels = replaySaturation(saturationEvents(rs), [createSaturationDetector('composite')], { finalWindowUs: Number.MAX_SAFE_INTEGER });
      expect(labels.composite).toBe('STABLE');
    });
  });

  it('backlog-drift: everything inside one bucket has no slope and is never saturated', () => {
    check('backlog never', requestsArb, (rs) => {
      const levels: SaturationLevel[] = [];
      replaySaturation(saturationEvents(rs), [createSaturationDetector('backlog-drift', { backlogDriftWindowUs: 10_000_000 })], { finalWindowUs: 0, onVerdict: (_t, _d, v) => levels.push(v.level) });
      expect(levels.every((l) => l === 'STABLE')).toBe(true);
    });
  });

  it('every verdict is a level of the three, with confidence in [0, 1] and finite signals', () => {
    check('ranges', requestsArb, (rs) => {
      const bad: SaturationEvent[] = [];
      replaySaturation(saturationEvents(rs), allDetectors(), {
        finalWindowUs: 0,
        onVerdict: (t, _d, v) => {
          const ok = v.level in SEVERITY && v.confidence >= 0 && v.confidence <= 1 && Number.isFinite(v.score) && Object.values(v.signals).every(Number.isFinite);
          if (!ok) bad.push({ timestampUs: t, kind: 'arrival', requestId: '', latencyMs: 0 });
        },
      });
      expect(bad).toEqual([]);
    });
  });
});
