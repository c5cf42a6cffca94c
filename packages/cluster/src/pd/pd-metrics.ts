import { summarizeUsAsMs } from '@blis/engine/internal';
import type { PoolType } from '@blis/policies';
import type { ClusterSimulator } from '../cluster-simulator.js';
import { type EncodeMetrics, encodeMetrics } from '../encode/encode-metrics.js';
import type { PdCoordinator } from './pd-coordinator.js';
import { servesDecode, servesPrefill } from './pool-layout.js';

/** Mean and tail of a latency, ms. */
export interface LatencySummaryMs {
  mean_ms: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
}

/** The `pd` section of a P/D run's result (BLIS's `=== PD Metrics ===`, plus what it lacks). */
export interface PdMetrics {
  /** Parents whose KV reached their decode pod. */
  disaggregated_requests: number;
  /** Requests the decider kept whole on their decode pod. */
  local_requests: number;
  /** Parents dropped because their decode pod could not hold the prompt's KV at the transfer's start. */
  dropped_at_decode_kv: number;
  transfers_initiated: number;
  transfers_completed: number;
  /** Completions per second on pods in the prefill pool (prefill parts, and on shared pods everything). */
  prefill_throughput_rps: number;
  /** Completions per second on pods in the decode pool. */
  decode_throughput_rps: number;
  /** max/min of the two throughputs; 1 when both are 0; null when one pool is idle (BLIS: "inf"). */
  load_imbalance_ratio: number | null;
  /** TTFT of completed disaggregated parents. */
  parent_ttft: LatencySummaryMs;
  kv_transfer_duration: LatencySummaryMs;
  /** Completed disaggregated parents whose KV transfer took more than half their TTFT. */
  transfer_bound_requests: number;
  /** Only with transfer contention: the most transfers active at once. */
  peak_concurrent_transfers?: number;
  /** Only with transfer contention: mean transfers active at each start, itself included. */
  mean_transfer_queue_depth?: number;
  /** Instance ids by pool (`encode` only with encode pods). */
  pools: Record<Exclude<PoolType, 'monolithic' | 'encode'>, string[]> & { encode?: string[] };
  /** Only with encode pods (E/P/D): the encode stage. */
  encode?: EncodeMetrics;
}

function summary(values: Float64Array): LatencySummaryMs {
  const d = summarizeUsAsMs(values);
  return { mean_ms: d.mean, p50_ms: d.p50, p95_ms: d.p95, p99_ms: d.p99 };
}

export function pdMetrics(sim: ClusterSimulator, pd: PdCoordinator): PdMetrics {
  const s = pd.stats;
  const layout = pd.setup.layout;
  const secs = sim.endUs / 1e6;
  let prefillDone = 0;
  let decodeDone = 0;
  const pools: PdMetrics['pools'] = { prefill: [], decode: [], shared: [], unassigned: [] };
  if (pd.encode !== undefined) pools.encode = [];
  sim.instances.forEach((inst, i) => {
    const pool = layout[i];
    if (pool !== 'monolithic') (pools[pool] ?? pools.unassigned).push(inst.config.id);
    if (servesPrefill(pool)) prefillDone += inst.metrics.completed;
    if (servesDecode(pool)) decodeDone += inst.metrics.completed;
  });
  const prefillRate = secs > 0 ? prefillDone / secs : 0;
  const decodeRate = secs > 0 ? decodeDone / secs : 0;
  const lo = Math.min(prefillRate, decodeRate);
  const hi = Math.max(prefillRate, decodeRate);
  const ttft = s.parentTtftUs.view();
  const transfer = s.parentTransferUs.view();
  let bound = 0;
  for (let i = 0; i < ttft.length; i++) if (transfer[i] * 2 > ttft[i]) bound++;
  const out: PdMetrics = {
    disaggregated_requests: s.disaggregated,
    local_requests: s.local,
    dropped_at_decode_kv: s.droppedAtDecodeKV,
    transfers_initiated: s.transfersInitiated,
    transfers_completed: s.transfersCompleted,
    prefill_throughput_rps: prefillRate,
    decode_throughput_rps: decodeRate,
    load_imbalance_ratio: hi === 0 ? 1 : lo === 0 ? null : hi / lo,
    parent_ttft: summary(ttft),
    kv_transfer_duration: summary(s.transferDurationUs.view()),
    transfer_bound_requests: bound,
    pools,
  };
  if (pd.encode !== undefined) {
    const ids = sim.instances.map((inst) => inst.config.id);
    const members = layout.flatMap((p, i) => (p === 'encode' ? [i] : []));
    out.encode = encodeMetrics(pd.encode.setup.decider.name, pd.encode.stats, ids, members);
  }
  if (pd.setup.link.contention) {
    out.peak_concurrent_transfers = pd.link.peak;
    out.mean_transfer_queue_depth = pd.link.meanQueueDepth;
  }
  return out;
}
