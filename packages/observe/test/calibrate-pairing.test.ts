import { describe, expect, it } from 'vitest';
import { calibrate } from '../src/calibrate/calibrate.js';
import { CalibrationInputError } from '../src/calibrate/errors.js';
import { compareHitRate, ttftTolerance } from '../src/calibrate/kv-hit-rate.js';
import type { ObservedTraceHeader } from '../src/calibrate/observed-trace.js';
import { pairRequests, transferDelayUs } from '../src/calibrate/pairing.js';
import { formatReportTable } from '../src/calibrate/report-table.js';
import { mergeSloTargets, parseSloFlag } from '../src/calibrate/slo-targets.js';
import { rec, sim } from './calibrate-fixtures.js';

const header = (over: Partial<ObservedTraceHeader> = {}): ObservedTraceHeader => ({ warmUpRequests: 0, goodputSloTargets: {}, ...over });
const opts = { warmUpRequests: 0, networkRttUs: 0, bandwidthMbps: 0 };

describe('CAL-2: RTT 1.5 ms from the header, 100 Mbps', () => {
  it('up 320 µs for 1000 input tokens, down 64 µs for 200 output tokens', () => {
    expect(transferDelayUs(100, 1000)).toBeCloseTo(320, 9);
    expect(transferDelayUs(100, 200)).toBeCloseTo(64, 9);
    expect(transferDelayUs(0, 1000)).toBe(0);
    expect(transferDelayUs(-5, 1000)).toBe(0);
  });
  it('simTTFT = ttft + 1500 + 320, simE2E = e2e + 1500 + 320 + 64', () => {
    const out = calibrate(
      { trace: { header: header({ measuredRttMs: 1.5 }), records: [rec(0, 5000, 20_000, { inputTokens: 1000, outputTokens: 200 })] }, simResults: [sim(0, 3000, 15_000, { inputTokens: 1000, outputTokens: 200 })] },
      { bandwidthMbps: 100 },
    );
    expect(out.networkRttUs).toBe(1500);
    expect(out.pairs.ttft.sim[0]).toBeCloseTo(3000 + 1500 + 320, 9);
    expect(out.pairs.e2e.sim[0]).toBeCloseTo(15_000 + 1500 + 320 + 64, 9);
    expect(out.pairs.ttft.real[0]).toBe(5000);
  });
  it('an explicit --network-rtt-us wins over the header; -1 means the header', () => {
    const inputs = { trace: { header: header({ measuredRttMs: 1.5 }), records: [rec(0, 5000, 20_000)] }, simResults: [sim(0, 3000, 15_000)] };
    expect(calibrate(inputs, { networkRttUs: 0 }).pairs.ttft.sim[0]).toBe(3000);
    expect(calibrate(inputs, { networkRttUs: -1 }).pairs.ttft.sim[0]).toBe(4500);
  });
});

describe('CAL-3: KV hit rate', () => {
  it('real 0.70, sim 0.75: 5.000000000000004 pp is within 5 pp', () => {
    const h = compareHitRate(0.7, 0.75, 5, 'tiered');
    expect(h.abs_error_pp).toBe(5.000000000000004);
    expect(h.within).toBe(true);
    expect(compareHitRate(0.7, 0.7501, 5, 'tiered').within).toBe(false);
  });
  it('the report carries hit_rate only with both sides, and warns otherwise', () => {
    const trace = { header: header({ observedKvMetrics: { source: 'tiered', hitRate: 0.7 } }), records: [rec(0, 100, 200)] };
    const both = calibrate({ trace, simResults: [sim(0, 100, 200)], simMetrics: { cacheHitRate: 0.75 } }, { hitRateTolerancePp: 5 });
    expect(both.report.hit_rate).toEqual({ real_hit_rate: 0.7, sim_hit_rate: 0.75, abs_error_pp: 5.000000000000004, tolerance_pp: 5, within: true, source: 'tiered' });
    const none = calibrate({ trace, simResults: [sim(0, 100, 200)] });
    expect(none.report.hit_rate).toBeUndefined();
    expect(none.warnings.join()).toMatch(/no --sim-metrics/);
  });
  it('ttft_tolerance: within at the threshold itself', () => {
    expect(ttftTolerance(0.15, 0.15).within).toBe(true);
    expect(ttftTolerance(0.1501, 0.15).within).toBe(false);
  });
});

describe('pairing', () => {
  it('skips warm-up ids, counts unmatched on both sides and token mismatches', () => {
    const records = [rec(0, 100, 200), rec(1, 100, 200), rec(2, 100, 200, { serverInputTokens: 120 }), rec(3, 100, 200, { outputTokens: 11 }), rec(4, 100, 200)];
    const sims = [sim(1, 90, 190), sim(2, 90, 190, { inputTokens: 120 }), sim(3, 90, 190), sim(9, 1, 2)];
    const p = pairRequests(records, sims, { ...opts, warmUpRequests: 1 });
    expect(p.excludedWarmUp).toBe(1);
    expect(p.matched).toBe(3);
    expect(p.unmatchedReal).toBe(1); // id 4
    expect(p.unmatchedSim).toBe(1); // id 9
    // id 2: the server's 120 prompt tokens match; id 3: output 11 against 10.
    expect(p.tokenMismatches).toBe(1);
    expect(p.ttft.real).toHaveLength(3);
  });
  it('client input tokens count when the server reported none', () => {
    const p = pairRequests([rec(0, 100, 200, { inputTokens: 50 })], [sim(0, 90, 190, { inputTokens: 51 })], opts);
    expect(p.tokenMismatches).toBe(1);
  });
  it('a negative real latency makes a matched record unmatched (it stays in matched_pairs)', () => {
    const out = calibrate({ trace: { header: header(), records: [rec(0, 100, 200), rec(1, -5, 200)] }, simResults: [sim(0, 100, 200), sim(1, 100, 200)] });
    expect(out.report.trace_info).toEqual({ num_requests: 3, warm_up_excluded: 0, matched_pairs: 2, token_mismatches: 0 });
    expect(out.report.metrics.ttft?.count).toBe(1);
  });
  it('breaks down by the simulated SLO class and model', () => {
    const p = pairRequests([rec(0, 100, 200), rec(1, 100, 200), rec(2, 100, 200)], [sim(0, 90, 190, { sloClass: 'critical', model: 'a' }), sim(1, 90, 190, { sloClass: 'batch' }), sim(2, 90, 190)], opts);
    expect([...p.bySlo.keys()].sort()).toEqual(['batch', 'critical']);
    expect([...p.byModel.keys()]).toEqual(['a']);
  });
  it('keeps the breakdowns in the report, sorted by key, and prints them in the table', () => {
    // critical: TTFT real 100, 200 vs sim 110, 180 -> errors 0.10, 0.10; E2E 1000, 2000 vs 1500, 2000 -> 0.5, 0.
    // batch: TTFT 400 vs 300 -> 0.25; E2E 800 vs 800 -> 0.
    const out = calibrate({
      trace: { header: header(), records: [rec(0, 100, 1000), rec(1, 200, 2000), rec(2, 400, 800), rec(3, 50, 60)] },
      simResults: [sim(0, 110, 1500, { sloClass: 'critical' }), sim(1, 180, 2000, { sloClass: 'critical' }), sim(2, 300, 800, { sloClass: 'batch' }), sim(3, 50, 60)],
    });
    const b = out.report.breakdowns!;
    expect(Object.keys(b.slo_class!)).toEqual(['batch', 'critical']);
    expect(b.model).toBeUndefined();
    expect(b.slo_class!.critical).toEqual({ count: 2, ttft_mape: expect.closeTo(0.1, 12), e2e_mape: 0.25, ttft_real_mean: 150, ttft_sim_mean: 145, e2e_real_mean: 1500, e2e_sim_mean: 1750 });
    expect(b.slo_class!.batch).toEqual({ count: 1, ttft_mape: 0.25, e2e_mape: 0, ttft_real_mean: 400, ttft_sim_mean: 300, e2e_real_mean: 800, e2e_sim_mean: 800 });
    const table = formatReportTable(out);
    expect(table).toMatch(/SLO class +n +TTFT MAPE +E2E MAPE\nbatch +1 +25\.0% +0\.0%\ncritical +2 +10\.0% +25\.0%/);
    // Without labels, no breakdowns.
    expect(calibrate({ trace: { header: header(), records: [rec(0, 100, 200)] }, simResults: [sim(0, 90, 190)] }).report.breakdowns).toBeUndefined();
  });
});

describe('ITL', () => {
  const chunks = (id: number, times: number[]) => times.map((t, i) => ({ requestId: id, chunkIndex: i, timestampUs: t }));
  it('real ITL is the mean of non-negative gaps; sim ITL is (E2E − TTFT)/(output − 1)', () => {
    // Gaps 10, -5 (skipped), 20: mean 15. Chunk rows out of order are sorted by index.
    const rows = [...chunks(0, [0, 10, 5, 25])].reverse();
    const p = pairRequests([rec(0, 100, 1000)], [sim(0, 100, 1000, { outputTokens: 10 })], opts, rows);
    expect(p.itl.real).toEqual([15]);
    expect(p.itl.sim).toEqual([100]);
  });
  it('drops a request whose gaps are all negative, and ignores requests with under 2 chunks', () => {
    const rows = [...chunks(0, [30, 20, 10]), ...chunks(1, [5])];
    const out = calibrate({ trace: { header: header(), records: [rec(0, 100, 1000), rec(1, 100, 1000), rec(2, 100, 1000)] }, simResults: [sim(0, 100, 1000), sim(1, 100, 1000), sim(2, 100, 1000, { outputTokens: 1 })], itlRows: [...rows, ...chunks(2, [0, 40])] });
    expect(out.pairs.itlDropped).toBe(1);
    expect(out.report.trace_info.itl_dropped).toBe(1);
    expect(out.pairs.itl.real).toEqual([40]);
    expect(out.pairs.itl.sim).toEqual([0]); // one output token: no decode gap
    expect(Object.keys(out.report.metrics)).toEqual(['e2e', 'itl', 'ttft']);
    expect(out.warnings.join()).toMatch(/ITL dropped for 1 request/);
  });
});

describe('fatal inputs', () => {
  const fails = (f: () => unknown, re: RegExp) => {
    expect(f).toThrow(CalibrationInputError);
    expect(f).toThrow(re);
  };
  it('no id in common', () => fails(() => calibrate({ trace: { header: header(), records: [rec(0, 1, 2)] }, simResults: [sim(5, 1, 2)] }), /no id in common/));
  it('every match has a negative latency', () => fails(() => calibrate({ trace: { header: header(), records: [rec(0, -1, 2)] }, simResults: [sim(0, 1, 2)] }), /negative latencies on all 1 matched/));
  it('no successful request', () => fails(() => calibrate({ trace: { header: header(), records: [rec(0, 1, 2, { status: 'error' })] }, simResults: [sim(0, 1, 2)] }), /status ok/));
  it('only warm-up requests', () => fails(() => calibrate({ trace: { header: header({ warmUpRequests: 5 }), records: [rec(0, 1, 2)] }, simResults: [sim(0, 1, 2)] }), /past the 5 warm-up requests, found no requests/));
});

describe('goodput', () => {
  it('parses Go durations per class and lets flags win over the header per dimension', () => {
    expect(parseSloFlag('critical=100ms, standard=1m30s')).toEqual(new Map([['critical', 100], ['standard', 90_000]]));
    expect(parseSloFlag('')).toBeUndefined();
    expect(parseSloFlag('critical=100')).toMatch(/duration "100"/);
    expect(parseSloFlag('critical=0s')).toMatch(/non-positive/);
    expect(parseSloFlag('=1s')).toMatch(/empty class/);
    // A long or binary flag value is quoted as an excerpt, never whole.
    const long = parseSloFlag(`critical=${'9'.repeat(5000)}x`) as string;
    expect(long.length).toBeLessThan(300);
    expect(long).toMatch(/\(5010 characters\)/);
    expect(parseSloFlag('crit\u0007ical')).toBe('the pair "crit\\u0007ical" (expected class=duration)');
    const t = mergeSloTargets({ ttft: new Map([['critical', 50]]) }, { critical: { ttftMs: 10, itlMs: 0, e2eMs: 900 }, batch: { ttftMs: 0, itlMs: 0, e2eMs: 0 } });
    expect([...t]).toEqual([['critical', { ttftMs: 50, itlMs: 0, e2eMs: 900 }]]);
  });
  it('per class attainment, real and sim, and goodput per second of the real run', () => {
    // Sends at EPOCH + 0, 1, 2, 3 ms; last chunk of id 3 at +3 ms + 1 ms: a 4 ms run.
    const records = [rec(0, 400, 900, { sloClass: 'critical' }), rec(1, 600, 900, { sloClass: 'critical' }), rec(2, 400, 1000, { sloClass: '' }), rec(3, 400, 1000, { sloClass: 'critical', status: 'error' })];
    const sims = [sim(0, 400, 900), sim(1, 400, 900), sim(2, 900, 1000), sim(3, 400, 900)];
    const out = calibrate({ trace: { header: header({ goodputSloTargets: { default: { ttftMs: 0.5, itlMs: 0, e2eMs: 0 } } }), records }, simResults: sims }, { slo: { ttft: new Map([['critical', 0.5]]) } });
    const g = out.report.goodput!;
    expect(Object.keys(g.per_class)).toEqual(['critical', 'default']);
    expect(g.targets.critical).toEqual({ TTFTMs: 0.5, ITLMs: 0, E2EMs: 0 });
    // critical: real 1 good (id 1 too slow, id 3 failed) of 3; sim all 3 good.
    expect(g.per_class.critical).toMatchObject({ count: 3, real_slo_attainment: 1 / 3, sim_slo_attainment: 1 });
    expect(g.per_class.critical.real_goodput_rps).toBeCloseTo(1 / 0.004, 9);
    expect(g.per_class.critical.real_attainment_by_dim).toEqual({ ttft: 0.5 });
    expect(g.per_class.default).toMatchObject({ count: 1, real_slo_attainment: 1, sim_slo_attainment: 0 });
    expect(g.skipped_itl).toBeUndefined();
  });
  it('an ITL target without chunk timings fails the request and sets skipped_itl', () => {
    const out = calibrate({ trace: { header: header(), records: [rec(0, 100, 900)] }, simResults: [sim(0, 100, 900)] }, { slo: { itl: new Map([['default', 5]]) } });
    expect(out.report.goodput?.skipped_itl).toBe(true);
    expect(out.report.goodput?.per_class.default.real_slo_attainment).toBe(0);
  });
});
