import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calibrate, readCalibrationInputs } from '../src/calibrate/calibrate.js';
import { readItlRows } from '../src/calibrate/itl-data.js';
import { parseSimCacheHitRate, readSimCacheHitRate } from '../src/calibrate/kv-hit-rate.js';
import { readObservedHeader, readObservedRecords } from '../src/calibrate/observed-trace.js';
import { formatReportTable } from '../src/calibrate/report-table.js';
import { stringifyReport } from '../src/calibrate/report.js';
import { parseSimResults, readSimResults } from '../src/calibrate/sim-results.js';
import { COLUMNS, blisResultsJson, csvOf, headerYaml, oursResultsJson, rec, sim, writeFiles } from './calibrate-fixtures.js';

const records = [rec(0, 100, 1000), rec(1, 200, 1100), rec(2, 300, 1200, { serverInputTokens: 130, sloClass: 'critical', model: 'm' })];
const sims = [sim(0, 90, 990), sim(1, 210, 1110), sim(2, 330, 1230, { inputTokens: 130, itlMeanUs: 100 })];

describe('recorded TraceV2', () => {
  it('reads the columns by name (optional columns inserted) and the header fields calibrate uses', () => {
    const f = writeFiles({
      'h.yaml': headerYaml('network:\n  measured_rtt_ms: 2.25\ngoodput_slo_targets:\n  critical: {ttft_ms: 100, e2e_ms: 900}\nobserved_kv_metrics:\n  source: tiered\n  hit_rate: 0.4\n'),
      'd.csv': csvOf(records),
    });
    expect(readObservedHeader(f['h.yaml'])).toEqual({ warmUpRequests: 0, measuredRttMs: 2.25, goodputSloTargets: { critical: { ttftMs: 100, itlMs: 0, e2eMs: 900 } }, observedKvMetrics: { source: 'tiered', hitRate: 0.4 } });
    expect(readObservedRecords(f['d.csv'])).toEqual(records);
  });
  it('names file, line and field of a bad value', () => {
    const bad = csvOf(records).replace(/,ok,/, ',ok,').split('\n');
    const cells = bad[2].split(',');
    cells[COLUMNS.indexOf('send_time_us')] = 'soon';
    bad[2] = cells.join(',');
    const f = writeFiles({ 'd.csv': bad.join('\n') });
    expect(() => readObservedRecords(f['d.csv'])).toThrow(`${f['d.csv']}:3 send_time_us: expected a non-negative integer, found "soon"`);
  });
  it('names a missing column, a short row and a bad header field', () => {
    const f = writeFiles({ 'a.csv': 'request_id,input_tokens\n1,2\n', 'b.csv': `${csvOf(records).trimEnd()}\n4,5\n`, 'h.yaml': headerYaml('network:\n  measured_rtt_ms: fast\n') });
    expect(() => readObservedRecords(f['a.csv'])).toThrow(/a\.csv:1: expected a TraceV2 header row naming the columns .*, found no slo_class column/);
    expect(() => readObservedRecords(f['b.csv'])).toThrow(/b\.csv:5: expected 28 columns \(as in the header row\), found 2/);
    expect(() => readObservedHeader(f['h.yaml'])).toThrow(`${f['h.yaml']} network.measured_rtt_ms: expected a number, found "fast"`);
  });
});

describe('simulator results', () => {
  it("BLIS's array (request_<N>, µs) and ours (a result object, ms) give the same pairs", () => {
    const a = parseSimResults(blisResultsJson(sims), 'a.json');
    const b = parseSimResults(oursResultsJson(sims), 'b.json');
    expect(a.map((s) => [s.requestId, s.ttftUs, s.e2eUs, s.inputTokens, s.itlMeanUs])).toEqual(b.map((s) => [s.requestId, s.ttftUs, s.e2eUs, s.inputTokens, s.itlMeanUs]));
    expect(a[0].requestId).toBe(0);
  });
  it("reads the SLO class of our rows (blis run/replay records carry it), for the per-class breakdown", () => {
    const rows = parseSimResults(oursResultsJson([{ ...sims[0], sloClass: 'critical' }, { ...sims[1], sloClass: '' }]), 'b.json');
    expect(rows.map((r) => r.sloClass)).toEqual(['critical', '']);
  });
  it('errors name the file and the field', () => {
    expect(() => parseSimResults('[{"request_id":"request_1","ttft_us":"x","e2e_us":1,"input_tokens":1,"output_tokens":1}]', 's.json')).toThrow(/^s\.json \[0\]\.ttft_us: expected a number, found "x"$/);
    expect(() => parseSimResults('{"requests":[{"request_id":"abc","input_tokens":1,"output_tokens":1,"ttft_ms":1,"itl_ms":0,"e2e_ms":2}]}', 's.json')).toThrow(/s\.json requests\[0\]\.request_id: expected a numeric request id/);
    expect(() => parseSimResults('{"ttft_mean_ms":3}', 's.json')).toThrow(/found an object without `requests`/);
    expect(() => parseSimResults('[]', 's.json')).toThrow(/at least one simulated request, found none/);
    expect(() => parseSimResults('{', 's.json')).toThrow(/^s\.json:1: expected JSON \(the results of `blis replay --results-path`\): a property name in double quotes, or '\}', found the end of the file$/);
    expect(() => readSimResults('/nonexistent/x.json')).toThrow(/x\.json: expected a readable results JSON file, found ENOENT/);
  });
});

describe('ITL CSV and simulator metrics', () => {
  it('reads chunk rows and cache_hit_rate', () => {
    const f = writeFiles({ 'itl.csv': 'request_id,chunk_index,timestamp_us\n0,0,10\n0,1,25\n', 'm.json': '{"cache_hit_rate":0.25}', 'n.json': '{"ttft_mean_ms":1}', 'bad.csv': 'request_id,chunk_index,timestamp_us\n0,-1,5\n' });
    expect(readItlRows(f['itl.csv'])).toEqual([{ requestId: 0, chunkIndex: 0, timestampUs: 10 }, { requestId: 0, chunkIndex: 1, timestampUs: 25 }]);
    expect(() => readItlRows(f['bad.csv'])).toThrow(/bad\.csv:2 chunk_index: expected a non-negative integer, found "-1"/);
    expect(readSimCacheHitRate(f['m.json'])).toBe(0.25);
    expect(readSimCacheHitRate(f['n.json'])).toBeUndefined();
  });
  it('a bad cache_hit_rate or metrics file is worded through the zod translator', () => {
    expect(() => parseSimCacheHitRate('{"cache_hit_rate":1.5}', 'm.json')).toThrow(/^m\.json cache_hit_rate: expected a number in \[0, 1\], found 1\.5$/);
    expect(() => parseSimCacheHitRate('{"cache_hit_rate":"high"}', 'm.json')).toThrow(/^m\.json cache_hit_rate: expected a number in \[0, 1\], found "high"$/);
    expect(() => parseSimCacheHitRate('[1,2]', 'm.json')).toThrow(/^m\.json: expected a metrics JSON object with cache_hit_rate, found a list of 2 item\(s\)$/);
  });
});

describe('end to end from files', () => {
  const f = writeFiles({ 'h.yaml': headerYaml(), 'd.csv': csvOf(records), 'sim.json': blisResultsJson(sims), 'ours.json': oursResultsJson(sims) });
  it('the report is the same from either results format, and deterministic', () => {
    const run = (simResults: string) => stringifyReport(calibrate(readCalibrationInputs({ traceHeader: f['h.yaml'], traceData: f['d.csv'], simResults })).report);
    const a = run(f['sim.json']);
    expect(run(f['ours.json'])).toBe(a);
    expect(run(f['sim.json'])).toBe(a);
    const report = JSON.parse(a);
    expect(Object.keys(report)).toEqual(['trace_info', 'metrics', 'config_match', 'known_limitations', 'ttft_tolerance']);
    expect(report.config_match).toEqual({});
    expect(report.known_limitations).toHaveLength(4);
    expect(report.metrics.ttft.request_level.mape).toBeCloseTo((0.1 + 0.05 + 0.1) / 3, 12);
  });
  it('the table lists each metric and the verdicts', () => {
    const out = calibrate(readCalibrationInputs({ traceHeader: f['h.yaml'], traceData: f['d.csv'], simResults: f['sim.json'] }));
    const table = formatReportTable(out);
    expect(table).toMatch(/^requests 3: 3 matched, 0 warm-up excluded, 0 unmatched real, 0 unmatched sim, 0 token mismatches\n/);
    expect(table).toMatch(/\nTTFT +3 +200\/210 +200\/210 +280\/306 +298\/328 +8\.3% +1\.000 +over-predict +excellent\n/);
    expect(table).toMatch(/\nTTFT MAPE 8\.3% \(threshold 15\.0%\): WITHIN\n/);
    expect(readFileSync(f['d.csv'], 'utf8')).toContain('request_id');
  });
});
