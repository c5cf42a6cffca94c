import { type Row, cdfChart } from '../chart-specs.js';
import { cdfPoints, quantileSorted, sortedFinite } from '../cdf.js';
import { type ReportRequest, requestsOf } from '../result-view.js';
import type { ReportCell, ReportChart, ReportRun, ReportSection } from '../types.js';

type Metric = 'ttft_ms' | 'e2e_ms' | 'itl_ms';
const METRICS: readonly { key: Metric; label: string }[] = [
  { key: 'ttft_ms', label: 'TTFT' },
  { key: 'e2e_ms', label: 'E2E' },
  { key: 'itl_ms', label: 'ITL (per-request mean)' },
];
const QUANTILES = [0.5, 0.9, 0.99] as const;

/** A named subset of one run's requests ("all", an SLO class, a tenant). */
interface Group {
  run: string;
  kind: 'all' | 'slo class' | 'tenant';
  name: string;
  requests: readonly ReportRequest[];
}

/** Requests by a grouping column, names as the result's per_slo_class / per_tenant spell them. */
function groupBy(requests: readonly ReportRequest[], column: 'slo_class' | 'tenant', blank: string): Map<string, ReportRequest[]> {
  const out = new Map<string, ReportRequest[]>();
  for (const r of requests) {
    const raw = r[column];
    if (raw === undefined) continue;
    const key = raw === '' ? blank : raw;
    const list = out.get(key);
    if (list) list.push(r);
    else out.set(key, [r]);
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function sorted(requests: readonly ReportRequest[], key: Metric): Float64Array {
  return sortedFinite(requests.map((r) => r[key]));
}

function cdfRows(groups: readonly Group[], key: Metric, label: (g: Group) => string): Row[] {
  const rows: Row[] = [];
  for (const g of groups) for (const pt of cdfPoints(sorted(g.requests, key))) rows.push({ series: label(g), p: pt.p, value: pt.value });
  return rows;
}

/** Latency CDFs and percentiles from per-request records, per run, SLO class and tenant. */
export function latencySection(runs: readonly ReportRun[]): ReportSection | undefined {
  const withRequests = runs.flatMap((run) => {
    const requests = requestsOf(run.result);
    return requests ? [{ run: run.name, requests }] : [];
  });
  if (withRequests.length === 0) return undefined;
  const several = runs.length > 1;
  const all: Group[] = withRequests.map((r) => ({ run: r.run, kind: 'all', name: 'all', requests: r.requests }));
  const bySlo: Group[] = [];
  const byTenant: Group[] = [];
  for (const r of withRequests) {
    const slo = groupBy(r.requests, 'slo_class', 'unspecified');
    if (slo.size > 1) for (const [name, requests] of slo) bySlo.push({ run: r.run, kind: 'slo class', name, requests });
    const tenants = groupBy(r.requests, 'tenant', 'default');
    if (tenants.size > 1) for (const [name, requests] of tenants) byTenant.push({ run: r.run, kind: 'tenant', name, requests });
  }
  const groupLabel = (g: Group) => (several ? `${g.run} · ${g.name}` : g.name);

  const charts: ReportChart[] = METRICS.map((m) =>
    cdfChart(`${m.key.replace('_ms', '')}-cdf`, `${m.label} CDF`, `${m.label} (ms)`, cdfRows(all, m.key, (g) => g.run)),
  );
  for (const [groups, kind, slug] of [
    [bySlo, 'SLO class', 'slo-class'],
    [byTenant, 'tenant', 'tenant'],
  ] as const) {
    if (groups.length === 0) continue;
    for (const m of METRICS.slice(0, 2))
      charts.push(cdfChart(`${m.key.replace('_ms', '')}-cdf-by-${slug}`, `${m.label} CDF by ${kind}`, `${m.label} (ms)`, cdfRows(groups, m.key, groupLabel)));
  }

  const columns = ['run', 'group', 'requests'];
  for (const m of METRICS) for (const q of QUANTILES) columns.push(`${m.key.replace('_ms', '')}_p${Math.round(q * 100)}_ms`);
  const rows: ReportCell[][] = [...all, ...bySlo, ...byTenant].map((g) => {
    const row: ReportCell[] = [g.run, g.kind === 'all' ? 'all' : `${g.kind}: ${g.name}`, g.requests.length];
    for (const m of METRICS) {
      const s = sorted(g.requests, m.key);
      for (const q of QUANTILES) row.push(s.length === 0 ? null : quantileSorted(s, q));
    }
    return row;
  });
  return {
    id: 'latency',
    title: 'Latency',
    note:
      'From the per-request records (completed requests). Percentiles interpolate between closest ranks, as the result summaries do; ' +
      "ITL is each request's mean inter-token latency, so its percentiles are over requests, not tokens.",
    charts,
    table: { columns, rows },
  };
}
