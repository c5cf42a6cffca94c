import { WorkloadSpecError, parseWorkloadSpecText } from '@blis/workload';
import { MAX_WINDOW_REQUESTS } from '@blis/workload/internal';
import { describe, expect, it } from 'vitest';

// The per-window generator draws every gap of a window before its first request, so the
// windows' planned requests (rate × duration, cut at the horizon) are bounded where the spec is
// read. A spec of trace_rate 1e20 over 300 s (the spec fuzz test, BLIS_FC_SEED=1032947477) hung.

const spec = (windows: string, head = 'aggregate_rate: 0\nhorizon: 1500000000\n') =>
  `version: "2"\nseed: 42\n${head}clients:\n  - id: chat\n    rate_fraction: 1.0\n    arrival: {process: poisson}\n` +
  '    input_distribution: {type: constant, params: {value: 100}}\n    output_distribution: {type: constant, params: {value: 10}}\n' +
  `    lifecycle:\n      windows:\n${windows}`;

function refusal(text: string, runHorizonUs?: number): string[] {
  try {
    parseWorkloadSpecText(text, 'spec.yaml', runHorizonUs !== undefined ? { runHorizonUs } : {});
  } catch (e) {
    if (e instanceof WorkloadSpecError) return e.issues.map((i) => `${i.file}:${i.line} ${i.field}: expected ${i.expected}, found ${i.found}`);
    throw e;
  }
  return [];
}

describe('lifecycle windows: requests planned by the per-window generator', () => {
  it('refuses a window past the limit at its trace_rate line, and says how many', () => {
    const got = refusal(spec('        - {start_us: 0, end_us: 300000000, trace_rate: 99999999999999999999}\n        - {start_us: 300000000, end_us: 900000000, trace_rate: 56}\n'));
    expect(got).toEqual([
      `spec.yaml:13 clients[0].lifecycle.windows[0].trace_rate: expected lifecycle windows of at most ${MAX_WINDOW_REQUESTS} requests in all (rate × duration; the generator draws every gap of a window before its first request), found 3.00e+22 requests up to this window`,
    ]);
  });

  it('counts every window of every client, and names the one that passes the limit', () => {
    // 60,000,000 + 60,000,000: the second window passes 10^8.
    const got = refusal(spec('        - {start_us: 0, end_us: 60000000, trace_rate: 1000000}\n        - {start_us: 60000000, end_us: 120000000, trace_rate: 1000000}\n'));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatch(/^spec\.yaml:14 clients\[0\]\.lifecycle\.windows\[1\]\.trace_rate: .* found 1\.20e\+8 requests up to this window$/);
  });

  it('counts up to the spec’s horizon, where the generator cuts windows, and not the run’s', () => {
    const windows = '        - {start_us: 0, end_us: 200000000, trace_rate: 1000000}\n';
    expect(refusal(spec(windows))).toHaveLength(1);
    expect(refusal(spec(windows, 'aggregate_rate: 0\nhorizon: 50000000\n'))).toEqual([]);
    // A run's --horizon ends the run but the generator still draws the window's gaps up front.
    expect(refusal(spec(windows), 50_000_000)).toHaveLength(1);
  });

  it('leaves windows without overrides alone: their client draws arrivals one at a time', () => {
    const windows = '        - {start_us: 0, end_us: 9000000000000}\n';
    expect(refusal(spec(windows, 'aggregate_rate: 1000000\nnum_requests: 10\n'))).toEqual([]);
  });
});
