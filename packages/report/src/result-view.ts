import type { RequestRecord, SimulationResult } from '@blis/cluster';

/**
 * The parts of a result this package reads beyond the fields `SimulationResult` declares: the
 * `timeseries` block (`--timeseries-interval`) and the `slo_class` / `tenant` columns of
 * per-request records. Read through these accessors so a result written before those fields
 * existed still reports (the sections that need them are left out).
 */
export interface TimeseriesInstance {
  instance_id: string;
  queue_depth?: (number | null)[];
  running?: (number | null)[];
  kv_utilization?: (number | null)[];
  cache_hit_rate?: (number | null)[];
  completed?: (number | null)[];
}

export interface TimeseriesCluster {
  queue_depth?: (number | null)[];
  running?: (number | null)[];
  completed?: (number | null)[];
  gateway_queue?: (number | null)[];
  replicas?: (number | null)[];
  routable?: (number | null)[];
  cost_usd?: (number | null)[];
  kv_transfers?: (number | null)[];
}

/** The `timeseries` block of a result: samples of simulated state every `interval_ms`. */
export interface Timeseries {
  interval_ms: number;
  t_ms: number[];
  instances: TimeseriesInstance[];
  cluster?: TimeseriesCluster;
}

/** A per-request record with the grouping columns newer results carry ("" when none). */
export type ReportRequest = RequestRecord & { slo_class?: string; tenant?: string };

export function timeseriesOf(result: SimulationResult): Timeseries | undefined {
  const ts = (result as { timeseries?: unknown }).timeseries;
  if (ts === null || typeof ts !== 'object') return undefined;
  const t = ts as Partial<Timeseries>;
  if (!Array.isArray(t.t_ms) || t.t_ms.length === 0) return undefined;
  return { interval_ms: t.interval_ms ?? 0, t_ms: t.t_ms, instances: Array.isArray(t.instances) ? t.instances : [], cluster: t.cluster };
}

export function requestsOf(result: SimulationResult): readonly ReportRequest[] | undefined {
  const r = result.requests;
  return Array.isArray(r) && r.length > 0 ? (r as ReportRequest[]) : undefined;
}
