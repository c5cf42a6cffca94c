import type { SimulationResult } from '@blis/cluster';
import { type Row, groupedBarChart } from '../chart-specs.js';
import type { ReportCell, ReportRun, ReportSection } from '../types.js';

/** Headline figures of a run, by the result's own field names (nested ones with `.`). */
export const HEADLINE_METRICS: readonly string[] = [
  'completed_requests',
  'injected_requests',
  'rejected_requests',
  'dropped_unservable',
  'timed_out_requests',
  'preemption_count',
  'responses_per_sec',
  'tokens_per_sec',
  'ttft_mean_ms',
  'ttft_p90_ms',
  'ttft_p99_ms',
  'e2e_mean_ms',
  'e2e_p90_ms',
  'e2e_p99_ms',
  'itl_mean_ms',
  'itl_p99_ms',
  'scheduling_delay_p99_ms',
  'cache_hit_rate',
  'slo_attainment.overall',
  'slo_attainment.goodput_rps',
  'load_fairness.jain_index',
];

/** A result field by dotted path; null when absent or not a number. */
export function headline(result: SimulationResult, path: string): number | null {
  let v: unknown = result;
  for (const part of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return typeof v === 'number' ? v : null;
}

const CHARTED = ['ttft_mean_ms', 'ttft_p99_ms', 'e2e_mean_ms', 'e2e_p99_ms', 'itl_mean_ms', 'itl_p99_ms'];

/** Several runs side by side: the headline figures, and their latencies as grouped bars. */
export function comparisonSection(runs: readonly ReportRun[]): ReportSection | undefined {
  if (runs.length < 2) return undefined;
  const rows: ReportCell[][] = HEADLINE_METRICS.map((m) => [m, ...runs.map((r) => headline(r.result, m))]);
  const bars: Row[] = [];
  for (const m of CHARTED)
    for (const r of runs) {
      const v = headline(r.result, m);
      if (v !== null) bars.push({ panel: m.slice(0, m.indexOf('_')).toUpperCase(), group: m.slice(m.indexOf('_') + 1).replace('_ms', ''), bar: r.name, value: v });
    }
  return {
    id: 'comparison',
    title: 'Comparison',
    note: 'Headline figures of each run, from the result files (cluster block).',
    charts: [groupedBarChart('comparison-latency', 'Latency by run', 'figure', 'ms', bars)],
    table: { columns: ['metric', ...runs.map((r) => r.name)], rows },
  };
}
