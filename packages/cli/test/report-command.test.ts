import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimulationResult } from '@blis/cluster';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, rejects } from './blis-process.js';

// `blis report` and `blis run --report` through the real process.

const tmp = mkdtempSync(join(tmpdir(), 'blis-report-'));
const at = (name: string) => join(tmp, name);
const RUN = ['run', '--model', 'qwen/qwen3-14b', '--num-instances', '4', '--num-requests', '200', '--rate', '20', '--quiet'];

function blisSync(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

const sectionIds = (html: string) => [...html.matchAll(/<section id="([^"]+)">/g)].map((m) => m[1]);
const embedded = (html: string) => JSON.parse(/<script type="application\/json" id="blis-report-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null');

describe('blis report', () => {
  let rr: SimulationResult;
  let ll: SimulationResult;
  beforeAll(() => {
    blisSync(...RUN, '--routing-policy', 'round-robin', '--results-path', at('round-robin.json'), '--report', at('run.html'));
    // The results file of a --report run has the time series the report drew.
    blisSync(...RUN, '--routing-policy', 'least-loaded', '--results-path', at('ll.json'), '--timeseries-interval', '2s');
    rr = JSON.parse(readFileSync(at('round-robin.json'), 'utf8'));
    expect(rr.timeseries?.interval_ms).toBe(1000);
    ll = JSON.parse(readFileSync(at('ll.json'), 'utf8'));
  });

  it('compares two result files, names the runs by file or name=, and prints the sections', () => {
    const out = blisSync('report', at('round-robin.json'), `least-loaded=${at('ll.json')}`, '-o', at('cmp.html'), '--title', 'RR vs LL');
    expect(JSON.parse(out)).toEqual({ report: at('cmp.html'), sections: ['comparison', 'latency', 'timeseries', 'routing', 'drops'] });
    expect(out.endsWith('\n')).toBe(true);
    const html = readFileSync(at('cmp.html'), 'utf8');
    expect(sectionIds(html)).toEqual(['comparison', 'latency', 'timeseries', 'routing', 'drops']);
    expect(html).toContain('<title>RR vs LL</title>');
    expect(html).not.toMatch(/\s(src|href)="(https?:)?\/\//);
    expect((html.match(/<svg/g) ?? []).length).toBeGreaterThanOrEqual(5);
    const data = embedded(html);
    expect(data.runs.map((r: { name: string }) => r.name)).toEqual(['round-robin', 'least-loaded']);
    expect(data.runs[0].target_distribution).toEqual(rr.target_distribution);
    expect(data.runs[1].target_distribution).toEqual(ll.target_distribution);
    expect(data.runs[0].metrics.ttft_p99_ms).toBe(rr.ttft_p99_ms);
    expect(data.runs[1].metrics.e2e_p99_ms).toBe(ll.e2e_p99_ms);
  });

  it('draws the timeseries block when the result has one', () => {
    const ts = { interval_ms: 1000, t_ms: [0, 1000, 2000], instances: [{ instance_id: 'i0', queue_depth: [0, 2, null], running: [0, 1, 1], future_series: [1, 2, 3] }], cluster: { replicas: [1, 1, 2], routable: [1, 1, 1] } };
    writeFileSync(at('with-ts.json'), JSON.stringify({ ...withRequests(), timeseries: ts }));
    expect(JSON.parse(blisSync('report', at('with-ts.json'), '-o', at('ts.html'))).sections).toEqual(['latency', 'timeseries', 'routing', 'drops', 'autoscaling']);
  });

  it('is byte-identical across runs', () => {
    blisSync('report', at('round-robin.json'), '-o', at('a.html'));
    blisSync('report', at('round-robin.json'), '-o', at('b.html'));
    expect(readFileSync(at('a.html'), 'utf8')).toBe(readFileSync(at('b.html'), 'utf8'));
  });

  it('`blis run --report` writes the same report as `blis report` on its results file', () => {
    blisSync('report', `run=${at('round-robin.json')}`, '-o', at('run-again.html'));
    expect(readFileSync(at('run.html'), 'utf8')).toBe(readFileSync(at('run-again.html'), 'utf8'));
  });

  it('`blis run --report` leaves stdout as it is without it', () => {
    const plain = blisSync(...RUN, '--num-requests', '30');
    expect(blisSync(...RUN, '--num-requests', '30', '--report', at('small.html'))).toBe(plain);
    // --report samples the instances every second when --timeseries-interval is not given.
    expect(sectionIds(readFileSync(at('small.html'), 'utf8'))).toEqual(['latency', 'timeseries', 'routing', 'drops']);
  });
});

describe.concurrent('blis report: bad input (exit 2, nothing on stdout)', () => {
  const file = (name: string, text: string) => {
    writeFileSync(at(name), text);
    return at(name);
  };
  const OUT = ['-o', at('never.html')];

  it('a missing file', ({ expect }) =>
    rejects(expect, ['report', at('missing.json'), ...OUT], `result ${at('missing.json')}: expected a readable result JSON file (blis run --results-path), found ENOENT (no such file or directory)`));

  it('bad JSON, located by line and column', ({ expect }) =>
    rejects(expect, ['report', file('bad.json', '{\n  "a": 1,\n}\n'), ...OUT], `${at('bad.json')}:3:1: expected JSON (a blis run result): a property name in double quotes, found "}\\n"`));

  it('JSON that is not a result names the field', ({ expect }) =>
    rejects(
      expect,
      ['report', file('almost.json', JSON.stringify({ ...minimalResult(), instances: [{ instance_id: 'i0' }] })), ...OUT],
      ...['completed_requests', 'injected_requests', 'preemption_count', 'dropped_unservable', 'timed_out_requests'].map(
        (f) => `${at('almost.json')} instances[0].${f}: expected a number (a blis run result), found nothing (the field is missing)`,
      ),
    ));

  it('a result without per-request records says to use --results-path', ({ expect }) =>
    rejects(
      expect,
      ['report', file('stdout.json', JSON.stringify(minimalResult())), ...OUT],
      `${at('stdout.json')} requests: expected per-request records (write the result with \`blis run --results-path <file>\`; stdout has none), found nothing`,
    ));

  it('a wrongly typed request field', ({ expect }) =>
    rejects(
      expect,
      ['report', file('typed.json', JSON.stringify({ ...minimalResult(), requests: [{ request_id: '0', arrival_ms: 0, handled_by: 'i0', ttft_ms: 'fast', itl_ms: 1, e2e_ms: 2 }] })), ...OUT],
      `${at('typed.json')} requests[0].ttft_ms: expected a number (a blis run result), found "fast"`,
    ));

  it('a timeseries sample that is not a number', ({ expect }) =>
    rejects(
      expect,
      ['report', file('ts.json', JSON.stringify({ ...withRequests(), timeseries: { interval_ms: 1000, t_ms: [0, 1000], instances: [{ instance_id: 'i0', queue_depth: [0, 'x'] }] } })), ...OUT],
      `${at('ts.json')} timeseries.instances[0].queue_depth[1]: expected a number (a blis run result), found "x"`,
    ));

  it('two runs with one name', ({ expect }) => {
    const f = file('twice.json', JSON.stringify(withRequests()));
    return rejects(expect, ['report', f, `twice=${f}`, ...OUT], `twice=${f}: expected a run name not already used (name=path picks one), found "twice", also the name of ${f}`);
  });

  it('an unwritable output', ({ expect }) =>
    rejects(expect, ['report', at('missing.json'), '-o', join(tmp, 'no-dir', 'r.html')], `--output ${join(tmp, 'no-dir', 'r.html')}: expected a writable file, found ENOENT (no such file or directory)`));

  it('no result file', ({ expect }) => rejects(expect, ['report', ...OUT], 'blis report: expected at least one result file or --calibration file, found neither'));

  it('no --output', ({ expect }) => rejects(expect, ['report', at('missing.json')], '--output: expected a value (`blis report` requires it), found nothing'));

  it('`blis run --report` to an unwritable path fails before the run', ({ expect }) =>
    rejects(expect, ['run', '--num-requests', '5', '--quiet', '--report', join(tmp, 'no-dir', 'r.html')], `--report ${join(tmp, 'no-dir', 'r.html')}: expected a writable file, found ENOENT (no such file or directory)`));
});

function withRequests() {
  return { ...minimalResult(), requests: [{ request_id: '0', arrival_ms: 0, handled_by: 'i0', ttft_ms: 1, itl_ms: 1, e2e_ms: 2 }] };
}

/** The fields `blis report` requires, without requests (what `blis run` prints on stdout). */
function minimalResult() {
  const block = (id: string) => ({ instance_id: id, completed_requests: 1, injected_requests: 1, preemption_count: 0, dropped_unservable: 0, timed_out_requests: 0, rejected_requests: 0, cache_hit_rate: 0 });
  return { ...block('cluster'), vllm_estimated_duration_s: 1, instances: [block('i0')], target_distribution: { i0: 1 } };
}
