import { type AdapterMetrics, adapterMetrics } from './lora/adapter-metrics.js';
import type { Distribution, InstanceSimulator } from '@blis/engine';
import { GrowableFloat64, summarizeUsAsMs, summarizeWeightedUsAsMs } from '@blis/engine/internal';
import type { AnomalyReport } from '@blis/trace';
import type { ClusterSimulator } from './cluster-simulator.js';
import { coefficientOfVariation, jainIndex, maxMinRatio } from './fairness.js';
import { type FitnessMetric, type FitnessResult, computeFitness } from './fitness.js';
import { tierCacheHitRate } from '@blis/kvcache';
import { type KvTierCounters, blisMeanRates, clusterTierFields, instanceTierFields, pooledTierStats } from './kv-tier-metrics.js';
import type { PoolType, SaturationLevel } from '@blis/policies';
import { type PdMetrics, pdMetrics } from './pd/pd-metrics.js';
import { type AutoscalingMetrics, autoscalingMetrics } from './autoscale/autoscale-metrics.js';
import { type CustomMetrics, collectCustomMetrics } from './custom-metrics.js';
import { type TimeSeriesResult, timeseriesResult } from './timeseries/timeseries-result.js';
import { type GoodputResult, goodputResult } from './goodput/goodput-result.js';
import { type RequestRecord, type UnfinishedRequestRecord, requestRecords, unfinishedRecords } from './request-records.js';

export type { RequestRecord, UnfinishedRequestRecord } from './request-records.js';

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

/** Latency summary of one group of requests (an SLO class or a tenant), client-observed. */
export interface GroupMetrics {
  completed_requests: number;
  ttft_mean_ms: number;
  ttft_p50_ms: number;
  ttft_p90_ms: number;
  ttft_p99_ms: number;
  e2e_mean_ms: number;
  e2e_p50_ms: number;
  e2e_p90_ms: number;
  e2e_p99_ms: number;
  tokens_per_sec: number;
  slo_attainment: number | null;
}

export interface SloAttainment {
  /** Share of completed requests whose client-observed TTFT met its target (per-request or --slo-ttft). */
  ttft: number | null;
  /** Share meeting --slo-e2e. */
  e2e: number | null;
  /** Share meeting every target that applies to it. */
  overall: number | null;
  /** Completed requests per second that met every target. */
  goodput_rps: number;
  requests_with_target: number;
}

/** What the flow-control gateway did over the run. */
export interface GatewayMetrics {
  /** Turned away (band or queue full) plus displaced from a full queue. */
  shed_requests: number;
  /** Turned away at enqueue, their band or the whole queue being full (BLIS's gateway_queue_rejected). */
  queue_rejected: number;
  /** Displaced from a full queue by a more urgent request (--queue-shedding; BLIS's gateway_queue_shed). */
  queue_shed: number;
  /** Expired in the queue (--request-ttl; BLIS's gateway_expired). */
  expired_requests: number;
  /** Evicted from their instance (--in-flight-eviction; BLIS's gateway_evicted). */
  evicted_requests: number;
  /** Requests that entered the queue. */
  enqueued_requests: number;
  /** Still waiting at the end of the run (BLIS's gateway_queue_depth). */
  still_queued: number;
  /** The most requests one priority band held at once. */
  max_band_depth: number;
  delay_mean_ms: number;
  delay_p99_ms: number;
}

/** Everything a run reports. Field names follow BLIS where BLIS has the concept. */
export interface SimulationResult extends MetricsBlock {
  instances: MetricsBlock[];
  target_distribution: Record<string, number>;
  load_fairness: { jain_index: number; coefficient_of_variation: number; max_min_ratio: number | null };
  per_slo_class: Record<string, GroupMetrics>;
  per_tenant: Record<string, GroupMetrics>;
  tenant_fairness_jain: number;
  slo_attainment: SloAttainment;
  /** With flow control: what the gateway queue did (see {@link GatewayMetrics}). */
  gateway: GatewayMetrics | null;
  sessions: { sessions: number; rounds_completed: number; duration_mean_ms: number; duration_p99_ms: number } | null;
  fitness?: FitnessResult;
  /** With per-request records: one per completed request. */
  requests?: RequestRecord[];
  /** With per-request records: one per injected request that did not complete, with its outcome. */
  unfinished_requests?: UnfinishedRequestRecord[];
  /** Failure modes detected in the decision trace (traced runs only). */
  anomalies?: AnomalyReport;
  /** Text summary of the decision trace for LLM reflection (`--summarize-trace`). */
  trace_summary?: string;
  /** Present only with P/D disaggregation. */
  pd?: PdMetrics;
  /** Present only with autoscaling, node pools or an instance lifecycle configured. */
  autoscaling?: AutoscalingMetrics;
  /** Present only when a policy reported metrics (`metrics()`): per policy, its metrics. */
  custom_metrics?: CustomMetrics;
  /** Present only when LoRA adapters are served (`--lora-config`): per adapter id, its loads, evictions, TTFT and throughput. */
  adapters?: Record<string, AdapterMetrics>;
  /** Present only with the post-hoc saturation analysis (`--detectors`): each detector's final label, by name. */
  saturation?: Record<string, SaturationLevel>;
  /** Present only with a time series interval (`--timeseries-interval`): signals over simulated time. */
  timeseries?: TimeSeriesResult;
  /** Present only with goodput thresholds (a spec's `goodput_slo_targets`, `--slo-ttft/--slo-itl/--slo-e2e class=...`): BLIS's goodput. */
  goodput?: GoodputResult;
  [extra: string]: unknown;
}


export interface ResultOptions {
  sloTtftUs: number;
  sloE2eUs: number;
  fitnessWeights?: Partial<Record<FitnessMetric, number>>;
  includeRequests: boolean;
}

function block(
  id: string,
  durationUs: number,
  counts: { completed: number; queued: number; running: number; injected: number; dropped: number; timedOut: number; rejected: number },
  totals: { input: number; output: number; preemptions: number; kvFailures: number; hitRate: number },
  ttft: Distribution,
  e2e: Distribution,
  itl: Distribution,
  sched: Distribution,
): MetricsBlock {
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

function instanceBlock(inst: InstanceSimulator, routed: number, durationUs: number): MetricsBlock {
  const m = inst.metrics;
  const b = block(
    inst.config.id,
    durationUs,
    { completed: m.completed, queued: inst.queueDepth, running: inst.batchSize, injected: routed, dropped: m.dropped, timedOut: m.timedOut, rejected: 0 },
    { input: m.totalInputTokens, output: m.totalOutputTokens, preemptions: m.preemptions, kvFailures: m.batchKvAllocationFailures, hitRate: inst.kvTiers?.cacheHitRate() ?? inst.kv.cacheHitRate },
    summarizeUsAsMs(m.ttftUs.view()),
    summarizeUsAsMs(m.e2eUs.view()),
    summarizeWeightedUsAsMs(m.itlEntries),
    summarizeUsAsMs(m.schedulingDelayUs.view()),
  );
  const tiers = instanceTierFields(inst);
  if (tiers === undefined) return b;
  return { ...b, ...tiers, preemption_rate: m.completed === 0 ? 0 : m.preemptions / m.completed };
}

function groupMetrics(sim: ClusterSimulator, column: GrowableFloat64, code: number, durationUs: number, opts: ResultOptions): GroupMetrics {
  const log = sim.log;
  const ttft = new GrowableFloat64();
  const e2e = new GrowableFloat64();
  let tokens = 0;
  let withTarget = 0;
  let met = 0;
  for (let i = 0; i < column.length; i++) {
    if (column.get(i) !== code) continue;
    const net = log.networkDelayUs.get(i);
    const t = log.ttftUs.get(i) + net;
    const e = log.e2eUs.get(i) + net;
    ttft.push(t);
    e2e.push(e);
    tokens += log.outputTokens.get(i);
    const verdict = meetsTargets(t, e, log.sloTargetUs.get(i), opts);
    if (verdict !== null) {
      withTarget++;
      if (verdict) met++;
    }
  }
  const td = summarizeUsAsMs(ttft.view());
  const ed = summarizeUsAsMs(e2e.view());
  return {
    completed_requests: ttft.length,
    ttft_mean_ms: td.mean,
    ttft_p50_ms: td.p50,
    ttft_p90_ms: td.p90,
    ttft_p99_ms: td.p99,
    e2e_mean_ms: ed.mean,
    e2e_p50_ms: ed.p50,
    e2e_p90_ms: ed.p90,
    e2e_p99_ms: ed.p99,
    tokens_per_sec: durationUs > 0 ? tokens / (durationUs / 1e6) : 0,
    slo_attainment: withTarget === 0 ? null : met / withTarget,
  };
}

/** null when no target applies; otherwise whether every applicable target was met. */
function meetsTargets(ttftUs: number, e2eUs: number, perRequestTtftUs: number, opts: ResultOptions): boolean | null {
  const ttftTarget = perRequestTtftUs > 0 ? perRequestTtftUs : opts.sloTtftUs;
  const e2eTarget = opts.sloE2eUs;
  if (ttftTarget <= 0 && e2eTarget <= 0) return null;
  return (ttftTarget <= 0 || ttftUs <= ttftTarget) && (e2eTarget <= 0 || e2eUs <= e2eTarget);
}

/** Builds the result JSON (cluster block first, as BLIS prints it) from a finished run. */
export function buildResult(sim: ClusterSimulator, opts: ResultOptions): SimulationResult {
  const dur = sim.endUs;
  const c = sim.counters;
  const log = sim.log;
  const pd = sim.pd;
  const instances = sim.instances.map((inst, i) => {
    const b = instanceBlock(inst, sim.routedTo[i], dur);
    return pd === undefined ? b : { ...b, pool: pd.setup.layout[i] };
  });

  // Cluster distributions over all completions.
  const itlAll = new Map<number, number>();
  let input = 0;
  let output = 0;
  let preemptions = 0;
  let kvFailures = 0;
  let hits = 0;
  let misses = 0;
  for (const inst of sim.instances) {
    const m = inst.metrics;
    for (const [v, n] of m.itlEntries) itlAll.set(v, (itlAll.get(v) ?? 0) + n);
    input += m.totalInputTokens;
    output += m.totalOutputTokens;
    preemptions += m.preemptions;
    kvFailures += m.batchKvAllocationFailures;
    const st = inst.kv.stats();
    hits += st.cacheHits;
    misses += st.cacheMisses;
  }
  const pooled = pooledTierStats(sim.instances);
  // Under P/D a request whose KV is moving is still running (BLIS's pdInTransfer), not queued.
  const transferring = pd === undefined ? 0 : pd.transferring;
  const queued = sim.stillQueued() - transferring;
  const running = sim.stillRunning() + transferring + (pd?.awaitingStart ?? 0);
  const cluster = block(
    'cluster',
    dur,
    { completed: c.completed, queued: queued + c.inTransit, running, injected: c.injected, dropped: c.dropped, timedOut: c.timedOut, rejected: c.rejected + c.shed + c.encodeRejected },
    { input, output, preemptions, kvFailures, hitRate: pooled !== undefined ? tierCacheHitRate(pooled) : hits + misses === 0 ? 0 : hits / (hits + misses) },
    summarizeUsAsMs(log.ttftUs.view()),
    summarizeUsAsMs(log.e2eUs.view()),
    summarizeWeightedUsAsMs(itlAll),
    summarizeUsAsMs(log.schedulingDelayUs.view()),
  );
  const clusterBlock: MetricsBlock =
    pooled === undefined
      ? cluster
      : {
          ...cluster,
          ...clusterTierFields(pooled),
          blis_mean_rates: blisMeanRates(sim.instances),
          preemption_rate: c.completed === 0 ? 0 : preemptions / c.completed,
        };

  const target: Record<string, number> = {};
  sim.instances.forEach((inst, i) => {
    target[inst.config.id] = sim.routedTo[i];
  });

  const perSlo: Record<string, GroupMetrics> = {};
  sim.sloNames.names.forEach((name, code) => {
    perSlo[name === '' ? 'unspecified' : name] = groupMetrics(sim, log.sloClass, code, dur, opts);
  });
  const perTenant: Record<string, GroupMetrics> = {};
  sim.tenantNames.names.forEach((name, code) => {
    perTenant[name === '' ? 'default' : name] = groupMetrics(sim, log.tenant, code, dur, opts);
  });

  // SLO attainment over all completions.
  let withTtft = 0;
  let metTtft = 0;
  let withE2e = 0;
  let metE2e = 0;
  let withAny = 0;
  let metAll = 0;
  for (let i = 0; i < log.ttftUs.length; i++) {
    const net = log.networkDelayUs.get(i);
    const t = log.ttftUs.get(i) + net;
    const e = log.e2eUs.get(i) + net;
    const tt = log.sloTargetUs.get(i) > 0 ? log.sloTargetUs.get(i) : opts.sloTtftUs;
    if (tt > 0) {
      withTtft++;
      if (t <= tt) metTtft++;
    }
    if (opts.sloE2eUs > 0) {
      withE2e++;
      if (e <= opts.sloE2eUs) metE2e++;
    }
    const v = meetsTargets(t, e, log.sloTargetUs.get(i), opts);
    if (v !== null) {
      withAny++;
      if (v) metAll++;
    }
  }
  const slo: SloAttainment = {
    ttft: withTtft === 0 ? null : metTtft / withTtft,
    e2e: withE2e === 0 ? null : metE2e / withE2e,
    overall: withAny === 0 ? null : metAll / withAny,
    goodput_rps: dur > 0 ? (withAny === 0 ? c.completed : metAll) / (dur / 1e6) : 0,
    requests_with_target: withAny,
  };

  const tenantTput = Object.values(perTenant).map((g) => g.tokens_per_sec);
  const gwDelay = summarizeUsAsMs(sim.gatewayDelayUs.view());
  let sessions: SimulationResult['sessions'] = null;
  if (sim.sessions.size > 0) {
    const durs = new GrowableFloat64();
    let rounds = 0;
    for (const s of sim.sessions.values()) {
      durs.push(s.endUs - s.startUs);
      rounds += s.rounds;
    }
    const d = summarizeUsAsMs(durs.view());
    sessions = { sessions: sim.sessions.size, rounds_completed: rounds, duration_mean_ms: d.mean, duration_p99_ms: d.p99 };
  }

  const result: SimulationResult = {
    ...clusterBlock,
    instances,
    target_distribution: target,
    load_fairness: {
      jain_index: jainIndex(sim.routedTo),
      coefficient_of_variation: coefficientOfVariation(sim.routedTo),
      max_min_ratio: maxMinRatio(sim.routedTo),
    },
    per_slo_class: perSlo,
    per_tenant: perTenant,
    tenant_fairness_jain: jainIndex(tenantTput),
    slo_attainment: slo,
    gateway:
      sim.flow === undefined
        ? null
        : {
            shed_requests: c.shed,
            queue_rejected: sim.flow.counts.queueRejected,
            queue_shed: sim.flow.counts.queueShed,
            expired_requests: c.expired,
            evicted_requests: c.evicted,
            enqueued_requests: sim.flow.counts.enqueued,
            still_queued: sim.gatewayLength,
            max_band_depth: sim.flow.counts.maxBandLength,
            delay_mean_ms: gwDelay.mean,
            delay_p99_ms: gwDelay.p99,
          },
    sessions,
  };
  const adapters = adapterMetrics(sim.instances, log, dur);
  if (adapters !== undefined) result.adapters = adapters;
  if (pd !== undefined) result.pd = pdMetrics(sim, pd);
  if (sim.fleet !== undefined) result.autoscaling = autoscalingMetrics(sim.fleet, sim.autoscaler, sim.counters, sim.endUs);
  if (sim.goodput !== undefined) result.goodput = goodputResult(sim.goodput, dur);
  const custom = collectCustomMetrics(sim);
  if (custom !== undefined) result.custom_metrics = custom;
  if (sim.timeseries !== undefined)
    result.timeseries = timeseriesResult(
      sim.timeseries,
      sim.instances.map((inst) => inst.config.id),
      pd?.setup.layout,
    );

  if (opts.fitnessWeights !== undefined) {
    const ttftD = summarizeUsAsMs(log.ttftUs.view());
    const e2eD = summarizeUsAsMs(log.e2eUs.view());
    const itlD = summarizeWeightedUsAsMs(itlAll);
    const us = (ms: number) => ms * 1000;
    result.fitness = computeFitness(opts.fitnessWeights, {
      throughput: cluster.responses_per_sec,
      tokens_per_sec: cluster.tokens_per_sec,
      mean_ttft: us(ttftD.mean),
      p50_ttft: us(ttftD.p50),
      p90_ttft: us(ttftD.p90),
      p95_ttft: us(ttftD.p95),
      p99_ttft: us(ttftD.p99),
      mean_e2e: us(e2eD.mean),
      p50_e2e: us(e2eD.p50),
      p90_e2e: us(e2eD.p90),
      p95_e2e: us(e2eD.p95),
      p99_e2e: us(e2eD.p99),
      mean_itl: us(itlD.mean),
      p99_itl: us(itlD.p99),
      p99_scheduling_delay: us(cluster.scheduling_delay_p99_ms),
    });
  }

  if (opts.includeRequests) {
    result.requests = requestRecords(sim);
    result.unfinished_requests = unfinishedRecords(sim);
  }
  return result;
}
