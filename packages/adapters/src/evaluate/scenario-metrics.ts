import type { RunSummary } from '@blis/cluster/internal';

/**
 * The raw figures of one run that the protocol reports, under the protocol's names (µs for
 * latencies, per second for rates, USD for cost). Every value is a finite number: a figure the
 * run does not have (no P/D, no autoscaler, no KV tiers) is 0, and `present` says which exist.
 */
export interface RunMetrics {
  values: Record<string, number>;
  /** Figures that only some runs have, and whether this run has them. */
  present: { slo_attainment: boolean; pd: boolean; autoscaling: boolean };
  features: Record<string, number>;
}

const ms = (v: number) => v * 1000;
const finite = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? 0 : v);

/** Reads one run's result; `numInstances` is the fleet size when no autoscaler reports one. */
export function runMetrics(r: RunSummary, numInstances: number, invariantViolations: number): RunMetrics {
  const pd = r.pd;
  const a = r.autoscaling;
  const parents = pd !== undefined ? pd.disaggregated_requests + pd.local_requests : 0;
  const durationS = r.vllm_estimated_duration_s;
  const values: Record<string, number> = {
    mean_ttft_us: ms(r.ttft_mean_ms),
    p90_ttft_us: ms(r.ttft_p90_ms),
    p95_ttft_us: ms(r.ttft_p95_ms),
    p99_ttft_us: ms(r.ttft_p99_ms),
    mean_e2e_us: ms(r.e2e_mean_ms),
    p90_e2e_us: ms(r.e2e_p90_ms),
    p95_e2e_us: ms(r.e2e_p95_ms),
    p99_e2e_us: ms(r.e2e_p99_ms),
    mean_itl_us: ms(r.itl_mean_ms),
    p99_itl_us: ms(r.itl_p99_ms),
    p99_scheduling_delay_us: ms(r.scheduling_delay_p99_ms),
    throughput_rps: r.responses_per_sec,
    tokens_per_sec: r.tokens_per_sec,
    goodput_rps: r.slo_attainment.goodput_rps,
    slo_attainment: finite(r.slo_attainment.overall),
    completion_rate: r.injected_requests > 0 ? r.completed_requests / r.injected_requests : 0,
    completed_requests: r.completed_requests,
    injected_requests: r.injected_requests,
    cache_hit_rate: finite(r.cache_hit_rate),
    kv_thrashing_rate: finite(r.kv_thrashing_rate),
    preemptions: r.preemption_count,
    timed_out_requests: r.timed_out_requests,
    routing_rejections: r.rejected_requests,
    dropped_unservable: r.dropped_unservable,
    pd_transfer_p99_us: pd !== undefined ? ms(pd.kv_transfer_duration.p99_ms) : 0,
    pd_load_imbalance: finite(pd?.load_imbalance_ratio),
    replica_seconds: a !== undefined ? a.replica_seconds : numInstances * durationS,
    cost_usd: a?.cost_usd ?? 0,
    invariant_violations: invariantViolations,
  };
  for (const k of Object.keys(values)) values[k] = finite(values[k]);
  return {
    values,
    present: { slo_attainment: r.slo_attainment.overall !== null, pd: pd !== undefined, autoscaling: a !== undefined },
    features: {
      mean_replicas: finite(a !== undefined ? a.mean_replicas : numInstances),
      disagg_fraction: parents > 0 ? pd!.disaggregated_requests / parents : 0,
    },
  };
}

/** Mean of each figure over the seeds of a scenario (every run reports the same keys). */
export function meanOf(runs: readonly Record<string, number>[]): Record<string, number> {
  const out: Record<string, number> = {};
  if (runs.length === 0) return out;
  for (const k of Object.keys(runs[0])) {
    let s = 0;
    for (const r of runs) s += r[k];
    out[k] = s / runs.length;
  }
  return out;
}
