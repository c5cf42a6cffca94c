import type { SimulationResult } from '@blis/cluster';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ReportRun, renderReportHtml, reportSections } from '../src/index.js';
import { type ParsedReport, parseReport, run, withIssue20Fields } from './report-fixtures.js';

/** The "all" row of the latency table for a run. */
function allRow(p: ParsedReport, runName: string): Record<string, unknown> {
  const t = p.data.sections.find((s) => s.id === 'latency')?.table;
  if (!t) throw new Error('no latency table');
  const row = t.rows.find((r) => r[0] === runName && r[1] === 'all');
  if (!row) throw new Error(`no all row for ${runName}`);
  return Object.fromEntries(t.columns.map((c, i) => [c, row[i]]));
}

function expectWellFormed(html: string, runs: readonly ReportRun[]): ParsedReport {
  const p = parseReport(html);
  const expected = reportSections(runs);
  expect(p.sections.map((s) => s.id)).toEqual(expected.map((s) => s.id));
  for (const [i, s] of expected.entries()) {
    expect((p.sections[i].body.match(/<svg/g) ?? []).length).toBe(s.charts.length);
    expect(s.charts.length + (s.table ? 1 : 0)).toBeGreaterThan(0);
  }
  expect(p.urls).toEqual([]);
  expect(html).not.toMatch(/<(script|link|img|iframe)\b[^>]*\s(src|href)=/i);
  return p;
}

describe('a 4-instance run', () => {
  let result: SimulationResult;
  let html: string;
  let p: ParsedReport;
  beforeAll(async () => {
    result = run({ routing: { policy: 'least-loaded' } });
    html = await renderReportHtml([{ name: 'least-loaded', result }], { title: 'Four instances' });
    p = expectWellFormed(html, [{ name: 'least-loaded', result }]);
  });

  it('has the latency, routing and drops sections, and no comparison for one run', () => {
    expect(p.sections.map((s) => s.id)).toEqual(['latency', 'routing', 'drops']);
    expect(html).toContain('<title>Four instances</title>');
    expect(html).toContain('<b>least-loaded</b>');
  });

  it('embeds the figures of the result file', () => {
    const m = p.data.runs[0].metrics;
    for (const k of ['ttft_p99_ms', 'e2e_p99_ms', 'itl_mean_ms', 'completed_requests', 'responses_per_sec'] as const) expect(m[k]).toBe(result[k]);
    expect(p.data.runs[0].target_distribution).toEqual(result.target_distribution);
    const routing = p.data.sections.find((s) => s.id === 'routing');
    expect(routing?.table?.rows).toEqual(Object.entries(result.target_distribution).map(([id, n]) => [id, n]));
    expect(routing?.charts[0].values).toEqual(Object.entries(result.target_distribution).map(([id, n]) => ({ group: id, bar: 'least-loaded', value: n })));
  });

  it('computes the percentiles the result reports from the per-request records', () => {
    const row = allRow(p, 'least-loaded');
    expect(row.requests).toBe(result.completed_requests);
    // The result interpolates in µs, the records are in ms: equal to float precision.
    expect(row.ttft_p90_ms).toBeCloseTo(result.ttft_p90_ms, 9);
    expect(row.ttft_p99_ms).toBeCloseTo(result.ttft_p99_ms, 9);
    expect(row.e2e_p99_ms).toBeCloseTo(result.e2e_p99_ms, 9);
  });

  it('draws the CDF through every sample of a small run', () => {
    const ttft = p.data.sections.find((s) => s.id === 'latency')?.charts.find((c) => c.id === 'ttft-cdf');
    const values = (ttft?.values ?? []) as { value: number; p: number }[];
    const sorted = (result.requests ?? []).map((r) => r.ttft_ms).sort((a, b) => a - b);
    expect(values.map((v) => v.value)).toEqual(sorted);
    expect(values[values.length - 1].p).toBe(1);
  });

  it('reports its progress once per chart, ending at the total, without changing the page', async () => {
    const calls: [number, number][] = [];
    const again = await renderReportHtml([{ name: 'least-loaded', result }], { title: 'Four instances', onProgress: (d, t) => calls.push([d, t]) });
    const total = reportSections([{ name: 'least-loaded', result }]).reduce((n, s) => n + s.charts.length, 0);
    expect(total).toBeGreaterThan(1);
    expect(calls).toEqual(Array.from({ length: total }, (_, i) => [i + 1, total]));
    expect(again).toBe(html);
  });

  it('is byte-identical when rendered again, whatever was rendered in between', async () => {
    await renderReportHtml([{ name: 'other', result: run({ routing: { policy: 'round-robin' } }, 50) }]);
    expect(await renderReportHtml([{ name: 'least-loaded', result }], { title: 'Four instances' })).toBe(html);
  });
});

describe('two routing policies compared', () => {
  it('puts both runs side by side', async () => {
    const runs = [
      { name: 'round-robin', result: run({ routing: { policy: 'round-robin' } }) },
      { name: 'least-loaded', result: run({ routing: { policy: 'least-loaded' } }) },
    ];
    const html = await renderReportHtml(runs);
    const p = expectWellFormed(html, runs);
    expect(p.sections.map((s) => s.id)).toEqual(['comparison', 'latency', 'routing', 'drops']);
    const cmp = p.data.sections.find((s) => s.id === 'comparison')?.table;
    expect(cmp?.columns).toEqual(['metric', 'round-robin', 'least-loaded']);
    const row = (metric: string) => cmp?.rows.find((r) => r[0] === metric)?.slice(1);
    expect(row('ttft_p99_ms')).toEqual(runs.map((r) => r.result.ttft_p99_ms));
    expect(row('completed_requests')).toEqual(runs.map((r) => r.result.completed_requests));
    expect(row('rejected_requests')).toEqual(runs.map((r) => r.result.rejected_requests));
    const series = new Set(p.data.sections.find((s) => s.id === 'latency')?.charts[0].values.map((v) => (v as { series: string }).series));
    expect([...series]).toEqual(['round-robin', 'least-loaded']);
    const routing = p.data.sections.find((s) => s.id === 'routing')?.table;
    expect(routing?.rows.map((r) => r.slice(1))).toEqual(Object.keys(runs[0].result.target_distribution).map((id) => runs.map((r) => r.result.target_distribution[id])));
  });
});

describe('sections that need more than the headline figures', () => {
  it('adds SLO-class and tenant CDFs and rows, instances over time, and the replica series', async () => {
    const result = withIssue20Fields(run({}, 120));
    const runs = [{ name: 'r', result }];
    const p = expectWellFormed(await renderReportHtml(runs), runs);
    expect(p.sections.map((s) => s.id)).toEqual(['latency', 'timeseries', 'routing', 'drops', 'autoscaling']);
    const latency = p.data.sections[0];
    expect(latency.charts.map((c) => c.id)).toEqual(['ttft-cdf', 'e2e-cdf', 'itl-cdf', 'ttft-cdf-by-slo-class', 'e2e-cdf-by-slo-class', 'ttft-cdf-by-tenant', 'e2e-cdf-by-tenant']);
    expect(latency.table?.rows.map((r) => r[1])).toEqual(['all', 'slo class: batch', 'slo class: critical', 'slo class: unspecified', 'tenant: alpha', 'tenant: beta']);
    expect(latency.table?.rows.map((r) => r[2])).toEqual([120, 40, 40, 40, 60, 60]);
    const ts = p.data.sections[1];
    expect(ts.charts.map((c) => c.id)).toEqual(['queue-depth', 'running', 'kv-utilization', 'cache-hit-rate']);
    // 4 instances x 4 samples, less instance_3's null first sample.
    expect(ts.charts[0].values).toHaveLength(15);
    expect(ts.charts[3].values).toHaveLength(8);
    expect(ts.charts[0].values[1]).toEqual({ run: 'r', series: 'instance_0', t_s: 1, value: 3 });
    const auto = p.data.sections[4];
    expect(auto.charts.map((c) => c.id)).toEqual(['replicas', 'cost']);
    expect(auto.table).toBeUndefined();
  });

  it('draws the time series a run samples (timeseriesIntervalUs)', async () => {
    const result = run({ timeseriesIntervalUs: 1_000_000 }, 200);
    const runs = [{ name: 'sampled', result }];
    const p = expectWellFormed(await renderReportHtml(runs), runs);
    expect(p.sections.map((s) => s.id)).toEqual(['latency', 'timeseries', 'routing', 'drops']);
    const ts = result.timeseries;
    if (!ts) throw new Error('no timeseries');
    const queue = p.data.sections[1].charts.find((c) => c.id === 'queue-depth')?.values as { series: string; t_s: number; value: number }[];
    const expected = ts.instances.flatMap((inst) => inst.queue_depth.flatMap((v, i) => (v === null ? [] : [{ run: 'sampled', series: inst.instance_id, t_s: ts.t_ms[i] / 1000, value: v }])));
    expect(queue).toEqual(expected);
  });

  it('reports P/D, KV tiers and autoscaling from real runs', async () => {
    const runs = [
      { name: 'pd', result: run({ numInstances: 2, pd: { prefillInstances: 1, decodeInstances: 1, decider: 'always' } }, 100) },
      { name: 'kv', result: run({ numInstances: 2, kvCpuBlocks: 500, totalKVBlocks: 400 }, 100) },
      { name: 'auto', result: run({ numInstances: 2, autoscaling: { intervalUs: 1_000_000, policy: 'queue-depth', minReplicas: 1, maxReplicas: 4 } }, 100) },
    ];
    const p = expectWellFormed(await renderReportHtml(runs), runs);
    expect(p.sections.map((s) => s.id)).toEqual(['comparison', 'latency', 'routing', 'drops', 'pd', 'kv-tiers', 'autoscaling']);
    const pd = p.data.sections.find((s) => s.id === 'pd')?.table;
    const pdResult = runs[0].result.pd;
    expect(pd?.columns).toEqual(['figure', 'pd']);
    expect(pdResult?.transfers_completed).toBeGreaterThan(0);
    expect(pd?.rows.find((r) => r[0] === 'transfers_completed')?.[1]).toBe(pdResult?.transfers_completed);
    const pdBars = p.data.sections.find((s) => s.id === 'pd')?.charts[0].values as { panel: string; group: string; value: number }[];
    expect(pdBars.find((b) => b.panel === 'KV transfer' && b.group === 'p99')?.value).toBe(pdResult?.kv_transfer_duration.p99_ms);
    expect(pd?.rows.find((r) => r[0] === 'kv_transfer_duration.p99_ms')?.[1]).toBe(pdResult?.kv_transfer_duration.p99_ms);
    const kv = p.data.sections.find((s) => s.id === 'kv-tiers')?.table;
    const reloaded = kv?.columns.indexOf('reloaded_blocks') ?? -1;
    expect(kv?.rows.map((r) => [r[1], r[reloaded]])).toEqual([...runs[1].result.instances, runs[1].result].map((b) => [b.instance_id, b.kv_tiers?.reloaded_blocks]));
    const auto = p.data.sections.find((s) => s.id === 'autoscaling')?.table;
    expect(auto?.rows.find((r) => r[0] === 'peak_replicas')?.[1]).toBe(runs[2].result.autoscaling?.peak_replicas);
  });

  it('reports the E/P/D encode stage beside a P/D run without one', async () => {
    const runs = [
      { name: 'pd', result: run({ numInstances: 2, pd: { prefillInstances: 1, decodeInstances: 1, decider: 'always' } }, 50) },
      { name: 'epd', result: run({ numInstances: 3, pd: { prefillInstances: 1, decodeInstances: 1, decider: 'always', encodeInstances: 1, encodeDecider: 'always' } }, 50) },
    ];
    const p = expectWellFormed(await renderReportHtml(runs), runs);
    const section = p.data.sections.find((s) => s.id === 'pd');
    expect(section?.table?.rows.find((r) => r[0] === 'encode.encoded_requests')).toEqual(['encode.encoded_requests', null, runs[1].result.pd?.encode?.encoded_requests]);
    expect(runs[1].result.pd?.encode?.encoded_requests).toBe(runs[1].result.injected_requests);
    expect(section?.note).toContain('epd: prefill 1, decode 1, shared 0, encode 1');
  });

  it('reports LoRA adapters: loads, evictions, TTFT and throughput per adapter', async () => {
    const spec = {
      version: '2',
      seed: 3,
      aggregate_rate: 20,
      num_requests: 120,
      clients: ['a', 'b', 'c'].map((x) => ({
        id: x,
        rate_fraction: 1 / 3,
        adapter: `ad-${x}`,
        input_distribution: { type: 'constant', params: { value: 200 } },
        output_distribution: { type: 'constant', params: { value: 20 } },
      })),
    };
    const lora = { adapters: ['a', 'b', 'c'].map((x) => ({ id: `ad-${x}`, rank: 8 })), adapterCapacity: 1 };
    const runs = [{ name: 'lora', result: run({ numInstances: 2, workload: { kind: 'spec', spec }, lora }) }];
    const p = expectWellFormed(await renderReportHtml(runs), runs);
    expect(p.sections.map((s) => s.id)).toContain('lora');
    const t = p.data.sections.find((s) => s.id === 'lora')?.table;
    const adapters = runs[0].result.adapters!;
    expect(t?.rows.map((r) => [r[1], r[2], r[3], r[4]])).toEqual(Object.entries(adapters).map(([id, a]) => [id, a.load_count, a.eviction_count, a.ttft_p50_us]));
    expect(adapters['ad-a'].load_count).toBeGreaterThan(1);
    // A run without adapters has no such section.
    expect(reportSections([{ name: 'plain', result: run({}, 50) }]).map((s) => s.id)).not.toContain('lora');
  });

  it('keeps a 100k-request report small: at most 400 points per CDF series', async () => {
    const base = run({}, 20);
    const template = base.requests?.[0];
    if (!template) throw new Error('no requests');
    // Deterministic spread of latencies, no simulation needed for the size check.
    const requests = Array.from({ length: 100_000 }, (_, i) => ({ ...template, request_id: String(i), ttft_ms: (i * 7919) % 100_003, e2e_ms: i, itl_ms: (i % 97) / 10 }));
    const runs = [{ name: 'big', result: { ...base, requests } }];
    const sections = reportSections(runs);
    for (const c of sections[0].charts) expect((c.spec as { data: { values: unknown[] } }).data.values.length).toBeLessThanOrEqual(400);
    const html = await renderReportHtml(runs);
    expect(html.length).toBeLessThan(600_000);
  });
});

describe('section-by-section absence', () => {
  it('leaves the latency section out when the result has no per-request records', () => {
    const { requests: _, ...result } = run({}, 30);
    expect(reportSections([{ name: 'x', result }]).map((s) => s.id)).toEqual(['routing', 'drops']);
  });
});
