import type { InstanceColumns, TimeSeriesRecorder } from './timeseries-recorder.js';
import type { SampleColumn } from './sample-column.js';

/** One instance's signals; `null` where the instance did not exist yet (autoscaling) or had no lookups. */
export interface InstanceSeries {
  instance_id: string;
  /** Present only with P/D: the instance's pool. */
  pool?: string;
  queue_depth: (number | null)[];
  running: (number | null)[];
  kv_utilization: (number | null)[];
  /** Prefix-cache hits over lookups in the interval ending at the sample (null: no lookups). */
  cache_hit_rate: (number | null)[];
  /** Requests completed in the interval ending at the sample. */
  completed: (number | null)[];
}

/** Cluster-wide signals; the optional ones only when the run has the part they describe. */
export interface ClusterSeries {
  queue_depth: number[];
  running: number[];
  completed: number[];
  /** With flow control: requests waiting at the gateway. */
  gateway_queue?: number[];
  /** With a lifecycle or autoscaling: replicas holding GPUs, routable replicas, cumulative cost. */
  replicas?: number[];
  routable?: number[];
  cost_usd?: number[];
  /** With P/D: KV transfers in flight. */
  kv_transfers?: number[];
}

/** The `timeseries` section of a result (`timeseriesIntervalUs` / `--timeseries-interval`). */
export interface TimeSeriesResult {
  /** The sampling interval; larger than asked when the series was halved to stay under the sample cap. */
  interval_ms: number;
  /** Simulated time of each sample: multiples of the interval, and last the run's end when it falls between them. */
  t_ms: number[];
  instances: InstanceSeries[];
  cluster: ClusterSeries;
}

/** Turns the recorder's columns into the JSON section (cumulative counters become per-interval figures). */
export function timeseriesResult(rec: TimeSeriesRecorder, ids: readonly string[], pools?: readonly string[]): TimeSeriesResult {
  const n = rec.count;
  const intervalMs = rec.intervalUs / 1000;
  const t = Array.from({ length: n }, (_, i) => i * intervalMs);
  if (rec.endSampleUs !== undefined) t[n - 1] = rec.endSampleUs / 1000;
  const instances = rec.instances.map((cols, i) => instanceSeries(cols, n, ids[i], pools?.[i]));
  const sum = (pick: (s: InstanceSeries) => (number | null)[]): number[] => {
    const out = new Array<number>(n).fill(0);
    for (const s of instances) {
      const col = pick(s);
      for (let k = 0; k < n; k++) out[k] += col[k] ?? 0;
    }
    return out;
  };
  const cluster: ClusterSeries = { queue_depth: sum((s) => s.queue_depth), running: sum((s) => s.running), completed: sum((s) => s.completed) };
  const c = rec.cluster;
  if (c.gatewayQueue !== undefined) cluster.gateway_queue = c.gatewayQueue.toArray();
  if (c.replicas !== undefined) cluster.replicas = c.replicas.toArray();
  if (c.routable !== undefined) cluster.routable = c.routable.toArray();
  if (c.costUsd !== undefined) cluster.cost_usd = c.costUsd.toArray();
  if (c.kvTransfers !== undefined) cluster.kv_transfers = c.kvTransfers.toArray();
  return { interval_ms: intervalMs, t_ms: t, instances, cluster };
}

function instanceSeries(cols: InstanceColumns, n: number, id: string, pool: string | undefined): InstanceSeries {
  const pad = (col: SampleColumn, f: (k: number) => number | null): (number | null)[] => {
    const out = new Array<number | null>(n).fill(null);
    for (let k = 0; k < col.length; k++) out[cols.start + k] = f(k);
    return out;
  };
  const delta = (col: SampleColumn, k: number) => col.get(k) - (k === 0 ? 0 : col.get(k - 1));
  const series: InstanceSeries = {
    instance_id: id,
    queue_depth: pad(cols.queueDepth, (k) => cols.queueDepth.get(k)),
    running: pad(cols.running, (k) => cols.running.get(k)),
    kv_utilization: pad(cols.kvUtilization, (k) => cols.kvUtilization.get(k)),
    cache_hit_rate: pad(cols.cacheLookups, (k) => {
      const lookups = delta(cols.cacheLookups, k);
      return lookups === 0 ? null : delta(cols.cacheHits, k) / lookups;
    }),
    completed: pad(cols.completed, (k) => delta(cols.completed, k)),
  };
  if (pool !== undefined) series.pool = pool;
  return series;
}
