import { type WeightedSample, GrowableFloat64, mergeWeighted, sortedWeighted, summarizeSortedWeightedUsAsMs, summarizeUsAsMs } from '@blis/engine/internal';
import type { Distribution } from '@blis/engine';
import { type AdapterMetrics, adapterMetrics } from './lora/adapter-metrics.js';
import type { AnomalyReport } from '@blis/trace';
import type { ClusterSimulator } from './cluster-simulator.js';
import { coefficientOfVariation, jainIndex, maxMinRatio } from './fairness.js';
import { type FitnessMetric, type FitnessResult, computeFitness } from './fitness.js';
import { tierCacheHitRate } from '@blis/kvcache';
import { blisMeanRates, clusterTierFields, pooledTierStats } from './kv-tier-metrics.js';
import type { SaturationLevel } from '@blis/policies';
import { type PdMetrics, pdMetrics } from './pd/pd-metrics.js';
import { type AutoscalingMetrics, autoscalingMetrics } from './autoscale/autoscale-metrics.js';
import { type CustomMetrics, collectCustomMetrics } from './custom-metrics.js';
import { type TimeSeriesResult, timeseriesResult } from './timeseries/timeseries-result.js';
import { type GoodputResult, goodputResult } from './goodput/goodput-result.js';
import { type RequestRecord, type UnfinishedRequestRecord, requestRecords, unfinishedRecords } from './request-records.js';
import { type MetricsBlock, instanceBlock, metricsBlock } from './metrics-block.js';
import { type GroupMetrics, type WholeLogLatencies, groupMetrics } from './group-metrics.js';
import { type SloAttainment, sloAttainment } from './slo-attainment.js';
import { type GatewayMetrics, gatewayMetrics } from './gateway-metrics.js';

export type { RequestRecord, UnfinishedRequestRecord } from './request-records.js';

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

/**
 * What a search's evaluation reads of a finished run (`blis evaluate`): the cluster block, SLO
 * attainment and, when the run has them, P/D and autoscaling. Each figure is the one
 * {@link buildResult} reports.
 */
export type RunSummary = MetricsBlock & Pick<SimulationResult, 'slo_attainment' | 'pd' | 'autoscaling'>;

/** {@link RunSummary} of a finished run, without the per-instance, per-class and per-tenant blocks. */
export function buildRunSummary(sim: ClusterSimulator, opts: ResultOptions): RunSummary {
  const { block } = clusterTotals(sim, instanceItl(sim));
  const summary: RunSummary = { ...block, slo_attainment: sloAttainment(sim.log, opts, sim.counters.completed, sim.endUs) };
  if (sim.pd !== undefined) summary.pd = pdMetrics(sim, sim.pd);
  if (sim.fleet !== undefined) summary.autoscaling = autoscalingMetrics(sim.fleet, sim.autoscaler, sim.counters, sim.endUs);
  return summary;
}

/** Each instance's ITL entries, sorted: its block summarises them, the cluster's pools them. */
function instanceItl(sim: ClusterSimulator): WeightedSample[] {
  return sim.instances.map((inst) => sortedWeighted(inst.metrics.itlEntries));
}

/** The cluster block over all completions (tier fields with KV tiers), and the pooled ITL distribution. */
function clusterTotals(sim: ClusterSimulator, itl: readonly WeightedSample[]): { cluster: MetricsBlock; block: MetricsBlock; itlAll: Distribution; whole: WholeLogLatencies } {
  const dur = sim.endUs;
  const c = sim.counters;
  const log = sim.log;
  const pd = sim.pd;
  let input = 0;
  let output = 0;
  let preemptions = 0;
  let kvFailures = 0;
  let hits = 0;
  let misses = 0;
  for (const inst of sim.instances) {
    const m = inst.metrics;
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
  // Counts are integers, so pooling them in any order gives the counts of a map filled instance by instance.
  const itlAll = summarizeSortedWeightedUsAsMs(mergeWeighted(itl));
  const whole = { ttft: summarizeUsAsMs(log.ttftUs.view()), e2e: summarizeUsAsMs(log.e2eUs.view()) };
  const cluster = metricsBlock(
    'cluster',
    dur,
    { completed: c.completed, queued: queued + c.inTransit, running, injected: c.injected, dropped: c.dropped, timedOut: c.timedOut, rejected: c.rejected + c.shed + c.encodeRejected },
    { input, output, preemptions, kvFailures, hitRate: pooled !== undefined ? tierCacheHitRate(pooled) : hits + misses === 0 ? 0 : hits / (hits + misses) },
    whole.ttft,
    whole.e2e,
    itlAll,
    summarizeUsAsMs(log.schedulingDelayUs.view()),
  );
  const block: MetricsBlock =
    pooled === undefined
      ? cluster
      : {
          ...cluster,
          ...clusterTierFields(pooled),
          blis_mean_rates: blisMeanRates(sim.instances),
          preemption_rate: c.completed === 0 ? 0 : preemptions / c.completed,
        };
  return { cluster, block, itlAll, whole };
}

/** Builds the result JSON (cluster block first, as BLIS prints it) from a finished run. */
export function buildResult(sim: ClusterSimulator, opts: ResultOptions): SimulationResult {
  const dur = sim.endUs;
  const c = sim.counters;
  const log = sim.log;
  const pd = sim.pd;
  const itl = instanceItl(sim);
  const instances = sim.instances.map((inst, i) => {
    const b = instanceBlock(inst, sim.routedTo[i], dur, itl[i]);
    return pd === undefined ? b : { ...b, pool: pd.setup.layout[i] };
  });
  const { cluster, block: clusterBlock, itlAll, whole } = clusterTotals(sim, itl);

  const target: Record<string, number> = {};
  sim.instances.forEach((inst, i) => {
    target[inst.config.id] = sim.routedTo[i];
  });

  const perSlo: Record<string, GroupMetrics> = {};
  const sloGroups = sim.sloNames.names.map((name, code) => {
    const g = groupMetrics(log, log.sloClass, code, dur, opts, whole);
    perSlo[name === '' ? 'unspecified' : name] = g;
    return g;
  });
  // One SLO class and one tenant (codes come from the names, so every completion is in both):
  // the two groups are the same completions, summarised once.
  const sameGroups = sloGroups.length === 1 && sim.tenantNames.names.length === 1;
  const perTenant: Record<string, GroupMetrics> = {};
  sim.tenantNames.names.forEach((name, code) => {
    perTenant[name === '' ? 'default' : name] = sameGroups ? { ...sloGroups[0] } : groupMetrics(log, log.tenant, code, dur, opts, whole);
  });

  const slo = sloAttainment(log, opts, c.completed, dur);

  const tenantTput = Object.values(perTenant).map((g) => g.tokens_per_sec);
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
    gateway: gatewayMetrics(sim),
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
    const ttftD = whole.ttft;
    const e2eD = whole.e2e;
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
      mean_itl: us(itlAll.mean),
      p99_itl: us(itlAll.p99),
      p99_scheduling_delay: us(cluster.scheduling_delay_p99_ms),
    });
  }

  if (opts.includeRequests) {
    result.requests = requestRecords(sim);
    result.unfinished_requests = unfinishedRecords(sim);
  }
  return result;
}
