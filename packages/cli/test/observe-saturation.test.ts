import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaturationAnalysisSchema, analyseSaturation } from '@blis/cluster';
import type { ObservedRecord } from '@blis/observe';
import { VerdictTraceWriter } from '@blis/trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observedCompletions } from '../src/commands/observe-saturation.js';
import { blis, rejects } from './blis-process.js';

// `blis observe --detectors`: BLIS's post-hoc saturation analysis over what the server answered.

const tmp = mkdtempSync(join(tmpdir(), 'blis-observe-sat-'));
let server: Server;
let url = '';
let posts = 0;

// Answers each completion after a delay that grows with the request count, so latency climbs.
beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      if (req.method === 'GET') return void res.writeHead(404).end();
      const b = JSON.parse(raw) as { max_tokens: number; prompt: string };
      posts++;
      const usage = { prompt_tokens: b.prompt.trim().split(/\s+/).length, completion_tokens: b.max_tokens };
      setTimeout(() => res.end(JSON.stringify({ choices: [{ text: 'x', finish_reason: 'length' }], usage })), 2 + posts);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

const base = (name: string) => ['observe', '--server-url', url, '--model', 'm', '--no-streaming', '--prompt-tokens', '10', '--prompt-tokens-stdev', '0', '--output-tokens', '2', '--output-tokens-stdev', '0', '--trace-header', join(tmp, `${name}.yaml`), '--trace-data', join(tmp, `${name}.csv`)];

/** The data CSV's rows as the records the detectors read. */
function recordsOf(csv: string): ObservedRecord[] {
  const [head, ...rows] = csv.trim().split('\n').map((l) => l.split(','));
  const col = (row: string[], name: string) => row[head.indexOf(name)];
  return rows.map((r) => ({ requestId: Number(col(r, 'request_id')), status: col(r, 'status'), arrivalTimeUs: Number(col(r, 'arrival_time_us')), sendTimeUs: Number(col(r, 'send_time_us')), lastChunkTimeUs: Number(col(r, 'last_chunk_time_us')) }) as ObservedRecord);
}

describe('blis observe --detectors', () => {
  it('adds each detector\'s final label to the summary and writes the verdict trace the recorded trace gives', async () => {
    const report = join(tmp, 'sat.json');
    const r = await blis([...base('sat'), '--rate', '200', '--num-requests', '40', '--detectors', 'all', '--saturation-report', report, '--saturation-final-window', '100ms']);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.ok).toBe(40);
    expect(Object.keys(summary.saturation).sort()).toEqual(['backlog-drift', 'composite', 'threshold']);
    expect(summary.files.saturation_report).toBe(report);
    const written = readFileSync(report, 'utf8');
    expect(JSON.parse(written).final).toEqual(summary.saturation);
    // The same analysis over the rows the trace file holds gives the same file.
    const settings = SaturationAnalysisSchema.parse({ detectors: ['composite', 'threshold', 'backlog-drift'], finalWindowUs: 100_000 });
    const requests = observedCompletions(recordsOf(readFileSync(join(tmp, 'sat.csv'), 'utf8')));
    expect(requests).toHaveLength(40);
    let expected = '';
    const w = new VerdictTraceWriter((s) => (expected += s));
    w.begin(analyseSaturation(requests, settings));
    analyseSaturation(requests, settings, (t, d, v) => w.record(t, d, v));
    w.end();
    expect(written).toBe(expected);
    // 40 requests: an arrival and a completion verdict each, per detector.
    expect(JSON.parse(written).trace).toHaveLength(40 * 2 * 3);
  });

  it('without --detectors the summary has no saturation', async () => {
    const r = await blis([...base('off'), '--rate', '200', '--num-requests', '3']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).saturation).toBeUndefined();
  });

  it('refuses bad saturation flags before sending anything', async () => {
    const before = posts;
    const args = [...base('bad'), '--rate', '10', '--num-requests', '2'];
    await rejects(expect, [...args, '--saturation-report', join(tmp, 'r.json')], '--saturation-report: expected to be given with --detectors (the saturation analysis is off without it), found no --detectors');
    await rejects(expect, [...args, '--saturation-final-window', '30s', '--saturation-config', 'x.yaml'], '--saturation-config: expected to be given with --detectors (the saturation analysis is off without it), found no --detectors', '--saturation-final-window: expected to be given with --detectors (the saturation analysis is off without it), found no --detectors');
    await rejects(expect, [...args, '--detectors', 'bogus'], '--detectors: expected composite, threshold, backlog-drift, a detector module (./x.mjs), a comma-list of those, or all, found unknown detector "bogus"');
    await rejects(expect, [...args, '--detectors', 'threshold', '--saturation-final-window', '0s'], '--saturation-final-window: expected a Go duration > 0 (e.g. 30s, 1m30s, 500ms), found "0s"');
    const cfg = join(tmp, 'cfg.yaml');
    writeFileSync(cfg, 'threshold:\n  threshold_ms: 100\n');
    await rejects(expect, [...args, '--detectors', 'composite', '--saturation-config', cfg], `${cfg}:1 threshold: expected no threshold: block unless threshold is among --detectors, found --detectors composite`);
    await rejects(expect, [...args, '--detectors', 'all', '--saturation-report', join(tmp, 'no-dir', 'r.json')], /^blis: --saturation-report/);
    expect(posts).toBe(before);
  });
});

describe('BLIS parity', () => {
  it("BLIS's own recording gives BLIS's verdict trace and final labels, byte for byte", () => {
    const fx = join(import.meta.dirname, 'fixtures', 'blis-head-observe-saturation');
    const requests = observedCompletions(recordsOf(readFileSync(join(fx, 'trace.csv'), 'utf8')));
    expect(requests).toHaveLength(50);
    const settings = SaturationAnalysisSchema.parse({ detectors: ['composite', 'threshold', 'backlog-drift'], finalWindowUs: 1_000_000 });
    const final = analyseSaturation(requests, settings);
    // stdout: a "=== Simulation Metrics ===" line, then the JSON.
    const printed = readFileSync(join(fx, 'stdout.txt'), 'utf8');
    expect(final).toEqual(JSON.parse(printed.slice(printed.indexOf('{'))).saturation);
    let ours = '';
    const w = new VerdictTraceWriter((s) => (ours += s));
    w.begin(final);
    analyseSaturation(requests, settings, (t, d, v) => w.record(t, d, v));
    w.end();
    expect(ours).toBe(gunzipSync(readFileSync(join(fx, 'report.json.gz'))).toString('utf8'));
  });
});

describe('observedCompletions', () => {
  it('keeps ok records with a positive send-to-last-chunk time, as request_<n> at their arrival', () => {
    const rec = (requestId: number, status: string, send: number, last: number) => ({ requestId, status, arrivalTimeUs: requestId * 1000, sendTimeUs: send, lastChunkTimeUs: last }) as ObservedRecord;
    expect(observedCompletions([rec(0, 'ok', 100, 350), rec(1, 'error', 100, 900), rec(2, 'ok', 500, 500), rec(3, 'timeout', 0, 0), rec(4, 'ok', 10, 11)])).toEqual([
      { requestId: 'request_0', arrivalUs: 0, e2eUs: 250 },
      { requestId: 'request_4', arrivalUs: 4000, e2eUs: 1 },
    ]);
  });
});
