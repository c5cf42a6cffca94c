import { type Row, timeChart } from '../chart-specs.js';
import { type Timeseries, type TimeseriesInstance, timeseriesOf } from '../result-view.js';
import type { ReportChart, ReportRun, ReportSection } from '../types.js';

type InstanceSeries = 'queue_depth' | 'running' | 'kv_utilization' | 'cache_hit_rate';
const SERIES: readonly { key: InstanceSeries; title: string; y: string; domain?: [number, number] }[] = [
  { key: 'queue_depth', title: 'Queue depth', y: 'waiting requests' },
  { key: 'running', title: 'Running batch', y: 'running requests' },
  { key: 'kv_utilization', title: 'KV cache utilization', y: 'share of KV blocks in use', domain: [0, 1] },
  { key: 'cache_hit_rate', title: 'Prefix cache hit rate', y: 'hits / lookups in the interval', domain: [0, 1] },
];

/** Rows of one sampled series; null samples (no instance yet, no lookups) are left out. */
export function seriesRows(run: string, series: string, ts: Timeseries, values: readonly (number | null)[] | undefined): Row[] {
  const rows: Row[] = [];
  if (!values) return rows;
  const n = Math.min(values.length, ts.t_ms.length);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined || !Number.isFinite(v)) continue;
    rows.push({ run, series, t_s: ts.t_ms[i] / 1000, value: v });
  }
  return rows;
}

export function withTimeseries(runs: readonly ReportRun[]): { run: string; ts: Timeseries }[] {
  return runs.flatMap((r) => {
    const ts = timeseriesOf(r.result);
    return ts ? [{ run: r.name, ts }] : [];
  });
}

/** Per-instance state over simulated time, from the `timeseries` block. */
export function timeseriesSection(runs: readonly ReportRun[]): ReportSection | undefined {
  const sampled = withTimeseries(runs).filter((s) => s.ts.instances.length > 0);
  if (sampled.length === 0) return undefined;
  const several = runs.length > 1;
  const charts: ReportChart[] = [];
  for (const s of SERIES) {
    const rows = sampled.flatMap(({ run, ts }) => ts.instances.flatMap((inst: TimeseriesInstance) => seriesRows(run, inst.instance_id, ts, inst[s.key])));
    if (rows.length > 0) charts.push(timeChart(s.key.replaceAll('_', '-'), `${s.title} per instance`, s.y, rows, several, s.domain));
  }
  const gateway = sampled.flatMap(({ run, ts }) => seriesRows(run, several ? run : 'gateway queue', ts, ts.cluster?.gateway_queue));
  if (gateway.length > 0) charts.push(timeChart('gateway-queue', 'Gateway queue (flow control)', 'requests held at the gateway', gateway, false));
  if (charts.length === 0) return undefined;
  const intervals = sampled.map(({ run, ts }) => (several ? `${run}: ${ts.interval_ms} ms` : `${ts.interval_ms} ms`)).join(', ');
  return {
    id: 'timeseries',
    title: 'Instances over time',
    note: `Sampled every ${intervals} of simulated time; each sample is the state after every event at or before it. The hit rate is over the interval ending at the sample.`,
    charts,
  };
}
