import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SATURATION_DETECTOR_NAMES, VerdictTraceWriter, createSaturationDetector, replaySaturation, saturationEvents } from '../src/index.js';

// The detectors alone, fed BLIS's own per-request metrics (its --metrics-path file of a run),
// must write BLIS's verdict trace of that run byte for byte: detector parity apart from the
// simulator's. Fixture and provenance: packages/cli/test/fixtures/blis-head-saturation.

const FIXTURES = join(import.meta.dirname, '..', '..', 'cli', 'test', 'fixtures', 'blis-head-saturation');

interface BlisRequest {
  requestID: string;
  arrived_at: number;
  e2e_ms: number;
}

describe('saturation detectors on BLIS HEAD\'s own request metrics', () => {
  it('the under-loaded run: the same report, byte for byte', () => {
    const metrics = JSON.parse(readFileSync(join(FIXTURES, 'under-metrics.json'), 'utf8')) as { requests: BlisRequest[] };
    // BLIS's file holds arrival in s and E2E in ms, the floats its replay converts back to µs.
    const events = saturationEvents(metrics.requests.map((r) => ({ requestId: r.requestID, arrivalUs: r.arrived_at * 1e6, e2eUs: r.e2e_ms * 1e3 })));
    const make = () => SATURATION_DETECTOR_NAMES.map((n) => createSaturationDetector(n));
    const final = replaySaturation(events, make(), { finalWindowUs: 30_000_000 });
    let text = '';
    const w = new VerdictTraceWriter((s) => {
      text += s;
    });
    w.begin(final);
    replaySaturation(events, make(), { finalWindowUs: 30_000_000, onVerdict: (t, d, v) => w.record(t, d, v) });
    w.end();
    expect(text === readFileSync(join(FIXTURES, 'under-report.json'), 'utf8')).toBe(true);
  });

  it('no completed request: {"trace": []} and no labels, as BLIS writes it', () => {
    let text = '';
    const w = new VerdictTraceWriter((s) => {
      text += s;
    });
    const final = replaySaturation([], [createSaturationDetector('composite')], { finalWindowUs: 1 });
    w.begin(final);
    w.end();
    expect(final).toEqual({});
    expect(text).toBe('{\n  "trace": []\n}\n');
  });
});
