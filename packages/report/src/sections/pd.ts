import type { PdMetrics } from '@blis/cluster';
import { type Row, groupedBarChart, timeChart } from '../chart-specs.js';
import type { ReportCell, ReportChart, ReportRun, ReportSection } from '../types.js';
import { seriesRows, withTimeseries } from './timeseries.js';

/** The `pd` block's scalar figures, in table order (nested summaries flattened with `.`). */
const FIELDS: readonly string[] = [
  'disaggregated_requests',
  'local_requests',
  'dropped_at_decode_kv',
  'transfers_initiated',
  'transfers_completed',
  'transfer_bound_requests',
  'prefill_throughput_rps',
  'decode_throughput_rps',
  'load_imbalance_ratio',
  'parent_ttft.mean_ms',
  'parent_ttft.p50_ms',
  'parent_ttft.p95_ms',
  'parent_ttft.p99_ms',
  'kv_transfer_duration.mean_ms',
  'kv_transfer_duration.p50_ms',
  'kv_transfer_duration.p95_ms',
  'kv_transfer_duration.p99_ms',
  'peak_concurrent_transfers',
  'mean_transfer_queue_depth',
];

/** The encode stage's figures (E/P/D runs). */
const ENCODE_FIELDS: readonly string[] = ['encode.encoded_requests', 'encode.encode_routing_rejections'];

function field(pd: PdMetrics, path: string): number | null {
  let v: unknown = pd;
  for (const part of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return typeof v === 'number' ? v : null;
}

/** Prefill/decode disaggregation: transfers, pool throughputs and the transfer share of TTFT. */
export function pdSection(runs: readonly ReportRun[]): ReportSection | undefined {
  const withPd = runs.flatMap((r) => (r.result.pd ? [{ name: r.name, pd: r.result.pd }] : []));
  if (withPd.length === 0) return undefined;
  const bars: Row[] = [];
  for (const summary of ['parent_ttft', 'kv_transfer_duration'] as const)
    for (const q of ['mean_ms', 'p50_ms', 'p95_ms', 'p99_ms'] as const)
      for (const r of withPd)
        if (r.pd.disaggregated_requests > 0) bars.push({ panel: summary === 'parent_ttft' ? 'parent TTFT' : 'KV transfer', group: q.replace('_ms', ''), bar: r.name, value: r.pd[summary][q] });
  // No run disaggregated a request: the summaries are all 0 and the table says so.
  const charts: ReportChart[] = bars.length === 0 ? [] : [groupedBarChart('pd-latency', 'Disaggregated parents: TTFT and KV transfer time', 'summary', 'ms', bars)];
  const several = runs.length > 1;
  const inFlight = withTimeseries(runs).flatMap(({ run, ts }) => seriesRows(run, several ? run : 'KV transfers in flight', ts, ts.cluster?.kv_transfers));
  if (inFlight.length > 0) charts.push(timeChart('pd-kv-transfers', 'KV transfers in flight', 'transfers', inFlight, false));
  // E/P/D's encode stage, only when some run has encode pods (other reports keep their rows).
  const fields = withPd.some((r) => r.pd.encode !== undefined) ? [...FIELDS, ...ENCODE_FIELDS] : FIELDS;
  const rows: ReportCell[][] = fields.map((f) => [f, ...withPd.map((r) => field(r.pd, f))]);
  const pools = withPd.map((r) => `${r.name}: prefill ${r.pd.pools.prefill.length}, decode ${r.pd.pools.decode.length}, shared ${r.pd.pools.shared.length}${r.pd.pools.encode !== undefined ? `, encode ${r.pd.pools.encode.length}` : ''}`);
  return {
    id: 'pd',
    title: 'Prefill/decode disaggregation',
    note: `From the pd block. Pools ${pools.join('; ')}. A parent is transfer-bound when its KV transfer took more than half its TTFT.`,
    charts,
    table: { columns: ['figure', ...withPd.map((r) => r.name)], rows },
  };
}
