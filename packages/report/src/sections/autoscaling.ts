import type { AutoscalingMetrics } from '@blis/cluster';
import { type Row, timeChart } from '../chart-specs.js';
import type { ReportCell, ReportChart, ReportRun, ReportSection } from '../types.js';
import { seriesRows, withTimeseries } from './timeseries.js';

const TOTALS: readonly (keyof AutoscalingMetrics & string)[] = [
  'policy',
  'evaluations',
  'scale_up_events',
  'scale_down_events',
  'replicas_added',
  'replicas_drained',
  'unplaced_replicas',
  'nodes_provisioned',
  'scale_oscillations',
  'drain_policy',
  'drained_dropped',
  'redirected',
  'replica_seconds',
  'gpu_seconds',
  'cost_usd',
  'peak_replicas',
  'mean_replicas',
  'final_replicas',
];

/** Replicas and cost over time (timeseries.cluster) and the autoscaling block's totals. */
export function autoscalingSection(runs: readonly ReportRun[]): ReportSection | undefined {
  const several = runs.length > 1;
  const sampled = withTimeseries(runs);
  const label = (run: string, what: string) => (several ? `${run} · ${what}` : what);
  const replicas: Row[] = sampled.flatMap(({ run, ts }) => [
    ...seriesRows(run, label(run, 'replicas'), ts, ts.cluster?.replicas),
    ...seriesRows(run, label(run, 'routable'), ts, ts.cluster?.routable),
  ]);
  const cost: Row[] = sampled.flatMap(({ run, ts }) => seriesRows(run, several ? run : 'cost', ts, ts.cluster?.cost_usd));
  const charts: ReportChart[] = [];
  if (replicas.length > 0) charts.push(timeChart('replicas', 'Replicas over time', 'replicas (GPU-holding, routable)', replicas, false));
  if (cost.length > 0) charts.push(timeChart('cost', 'Cumulative cost', 'USD', cost, false));
  const withTotals = runs.flatMap((r) => (r.result.autoscaling ? [{ name: r.name, a: r.result.autoscaling }] : []));
  if (charts.length === 0 && withTotals.length === 0) return undefined;
  const rows: ReportCell[][] = TOTALS.map((k) => [k, ...withTotals.map((r) => (r.a[k] as string | number | null | undefined) ?? null)]);
  return {
    id: 'autoscaling',
    title: 'Autoscaling',
    note: 'Replicas holding GPUs and routable replicas over simulated time, cumulative cost, and the totals of the autoscaling block.',
    charts,
    ...(withTotals.length > 0 ? { table: { columns: ['figure', ...withTotals.map((r) => r.name)], rows } } : {}),
  };
}
