import { type WeightedSample, summarizeSortedWeightedUsAsMs, summarizeUsAsMs } from '@blis/engine/internal';
import type { Distribution, InstanceSimulator } from '@blis/engine';
import type { PoolType } from '@blis/policies';
import { type KvTierCounters, instanceTierFields } from './kv-tier-metrics.js';

/** One block of BLIS's result JSON: an instance, or the whole cluster (`instance_id: "cluster"`). */
export interface MetricsBlock {
  instance_id: string;
  completed_requests: number;
  still_queued: number;
  still_running: number;
  injected_requests: number;
  total_input_tokens: number;
  total_output_tokens: number;
  vllm_estimated_duration_s: number;
  responses_per_sec: number;
  tokens_per_sec: number;
  e2e_mean_ms: number;
  e2e_p90_ms: number;
  e2e_p95_ms: number;
  e2e_p99_ms: number;
  ttft_mean_ms: number;
  ttft_p90_ms: number;
  ttft_p95_ms: number;
  ttft_p99_ms: number;
  itl_mean_ms: number;
  itl_p90_ms: number;
  itl_p95_ms: number;
  itl_p99_ms: number;
  scheduling_delay_p99_ms: number;
  preemption_count: number;
  dropped_unservable: number;
  length_capped_requests: number;
  timed_out_requests: number;
  rejected_requests: number;
  /**
   * BLIS's field: failed KV allocations for a request's final token at completion, which BLIS
   * calls an accounting anomaly. This engine never makes that allocation (the last token's KV is
   * never read), so the count is always 0; kept so outputs compare field by field.
   */
  kv_allocation_failures: number;
  /** KV allocations that failed while forming a batch, each evicting a running request or deferring one. */
  kv_batch_allocation_failures: number;
  /**
   * Share of KV blocks served from the prefix cache. With KV tiers, BLIS's formula: hits over
   * hits, misses and the failed allocations the CPU tier could not help; for the cluster,
   * pooled over every instance's blocks.
   */
  cache_hit_rate: number;
  /** Present only with KV tiers: BLIS's thrashing rate (pooled over instances for the cluster). */
  kv_thrashing_rate?: number;
  /** Present only with KV tiers: what the tiers did. */
  kv_tiers?: KvTierCounters;
  /**
   * Present only with KV tiers, cluster block: BLIS's printed figures, the unweighted means of
   * the instances' hit and thrashing rates (not pooled over blocks).
   */
  blis_mean_rates?: { cache_hit_rate: number; kv_thrashing_rate: number };
  /** Present only with KV tiers: preemptions per completed request (BLIS's `Preemption Rate`). */
  preemption_rate?: number;
  /** Present only with P/D, instance blocks: the instance's pool. Its counts are of the parts it ran. */
  pool?: PoolType;
}

/** Counts of one block: requests by where they ended up. */
export interface BlockCounts {
  completed: number;
  queued: number;
  running: number;
  injected: number;
  dropped: number;
  timedOut: number;
  rejected: number;
}

/** Totals of one block over its completions. */
export interface BlockTotals {
  input: number;
  output: number;
  preemptions: number;
  kvFailures: number;
  hitRate: number;
}

/** One block from its counts, totals and latency distributions (ms) over a run of `durationUs`. */
export function metricsBlock(id: string, durationUs: number, counts: BlockCounts, totals: BlockTotals, ttft: Distribution, e2e: Distribution, itl: Distribution, sched: Distribution): MetricsBlock {
  const dur = durationUs / 1e6;
  return {
    instance_id: id,
    completed_requests: counts.completed,
    still_queued: counts.queued,
    still_running: counts.running,
    injected_requests: counts.injected,
    total_input_tokens: totals.input,
    total_output_tokens: totals.output,
    vllm_estimated_duration_s: dur,
    responses_per_sec: dur > 0 ? counts.completed / dur : 0,
    tokens_per_sec: dur > 0 ? totals.output / dur : 0,
    e2e_mean_ms: e2e.mean,
    e2e_p90_ms: e2e.p90,
    e2e_p95_ms: e2e.p95,
    e2e_p99_ms: e2e.p99,
    ttft_mean_ms: ttft.mean,
    ttft_p90_ms: ttft.p90,
    ttft_p95_ms: ttft.p95,
    ttft_p99_ms: ttft.p99,
    itl_mean_ms: itl.mean,
    itl_p90_ms: itl.p90,
    itl_p95_ms: itl.p95,
    itl_p99_ms: itl.p99,
    scheduling_delay_p99_ms: sched.p99,
    preemption_count: totals.preemptions,
    dropped_unservable: counts.dropped,
    length_capped_requests: 0,
    timed_out_requests: counts.timedOut,
    rejected_requests: counts.rejected,
    kv_allocation_failures: 0,
    kv_batch_allocation_failures: totals.kvFailures,
    cache_hit_rate: totals.hitRate,
  };
}

/**
 * An instance's block: `routed` is what the router sent it (its injected requests), `itl` its
 * ITL entries sorted (sortedWeighted of its metrics' itlEntries, which the cluster pools too).
 */
export function instanceBlock(inst: InstanceSimulator, routed: number, durationUs: number, itl: WeightedSample): MetricsBlock {
  const m = inst.metrics;
  const b = metricsBlock(
    inst.config.id,
    durationUs,
    { completed: m.completed, queued: inst.queueDepth, running: inst.batchSize, injected: routed, dropped: m.dropped, timedOut: m.timedOut, rejected: 0 },
    { input: m.totalInputTokens, output: m.totalOutputTokens, preemptions: m.preemptions, kvFailures: m.batchKvAllocationFailures, hitRate: inst.kvTiers?.cacheHitRate() ?? inst.kv.cacheHitRate },
    summarizeUsAsMs(m.ttftUs.view()),
    summarizeUsAsMs(m.e2eUs.view()),
    summarizeSortedWeightedUsAsMs(itl),
    summarizeUsAsMs(m.schedulingDelayUs.view()),
  );
  const tiers = instanceTierFields(inst);
  if (tiers === undefined) return b;
  return { ...b, ...tiers, preemption_rate: m.completed === 0 ? 0 : m.preemptions / m.completed };
}

