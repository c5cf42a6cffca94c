import { mergeGoodputTargets } from '@blis/workload/internal';
import { type InstanceConfig, PartitionedRng } from '@blis/engine';
import type { SloDimTargets } from '@blis/workload';
import type { KVTierConfig } from '@blis/kvcache';
import type { LatencyModel } from '@blis/latency';
import { type PolicyFactoryContext, type PostHocSaturationDetector, defaultPolicyRegistry } from '@blis/policies';
import { ClusterSimulator } from './cluster-simulator.js';
import { type SimulationConfig, type SimulationConfigInput, SimulationConfigSchema } from './config-schema.js';
import type { FitnessMetric } from './fitness.js';
import { type SimulationResult, buildResult } from './results.js';
import { openSizedWorkload, sizeWorkload } from './workload-source.js';
import { routingReadsPrefixCache } from './cache-signal.js';
import { loraSettings } from './lora/lora-schema.js';
import { adapterRegistryView } from './lora/adapter-references.js';
import { resolvePdConfig } from './pd/pd-schema.js';
import { resolveFlowControl } from './flow-control/resolve-flow-control.js';
import { type ResolvedPdSetup, resolvePdSetup } from './pd/pd-setup.js';
import { poolLayout } from './pd/pool-layout.js';
import { resolveLifecycle } from './autoscale/lifecycle-setup.js';
import { withPolicyChecks } from './policy-checks.js';
import { RunLimitError } from './limits/run-limit-error.js';
import { configLimitIssues, kvBlockIssues } from './limits/config-limits.js';
import { type CpuTierSize, type InstanceGroup, type MemoryEstimate, type MemoryEstimateInput, estimateMemory, timeseriesSamplesOf } from './limits/memory-estimate.js';
import { memoryLimitIssues } from './limits/memory-limit.js';
import { autoscaleLimitIssues, autoscalePeak } from './limits/autoscale-peak.js';
import { fleetCeiling } from './limits/fleet-ceiling.js';
import { unplaceableGroupIssues } from './limits/unplaceable-groups.js';
import { GO_ROUTER_STREAMS, goRouterRandom } from './router-random.js';
import { runSaturationAnalysis } from './saturation-analysis/run-saturation-analysis.js';
import { GoodputRecorder } from './goodput/goodput-recorder.js';
import type { SimulationRuntime } from './simulation-runtime.js';
import { modelArchitecture, resolveRunModel } from './run-model.js';
import { instanceConfigFactory } from './instance-configs.js';

/** What a prepared run knows besides its result: the resolved pieces, for reporting. */
export interface PreparedRun {
  config: SimulationConfig;
  /** The engine itself (`@blis/cluster/internal`: unstable, no semver promise). */
  cluster: ClusterSimulator;
  /** Simulated time the run ended at, in µs (the horizon, or the last event): 0 until {@link runPrepared} ran it. */
  readonly endUs: number;
  latency: LatencyModel;
  latencyKind: string;
  totalKVBlocks: number;
  kvBlocksSource: string;
  /** How a derived count came about (`80 GiB × 0.9 × TP 1 − … / 131072 B per block`); absent otherwise. */
  kvBlocksDerivation?: string;
  /** What the run was estimated to need before anything was allocated (docs/limits.md). */
  memory: MemoryEstimate;
  /** The CPU tier or offload chain every instance has behind its GPU cache; absent = GPU only. */
  kvTiers?: KVTierConfig;
  /** The runtime's own post-hoc saturation detectors (`SimulationRuntime.saturationDetectors`). */
  saturationDetectors?: readonly (() => PostHocSaturationDetector)[];
  /** Warnings about the workload as opened (BLIS logs them): a closed-loop replay of a trace without sessions. */
  workloadWarnings?: readonly string[];
  /** The goodput thresholds applied (the workload's merged with the config's); absent = no goodput. */
  goodputTargets?: Record<string, SloDimTargets>;
}

/**
 * Validates `input`, builds the instances, policies and request stream, and returns the
 * simulator ready to run. {@link simulate} is this plus `run()` and `buildResult()`.
 */
export function prepareSimulation(input: SimulationConfigInput, given: SimulationRuntime = {}): PreparedRun {
  return prepare(input, given, false);
}

/**
 * What {@link prepareSimulation} would estimate the run to need, checked as it would be (the
 * fixed limits, then `memoryLimit`), without building anything: no instance, no request stream.
 * A search (`blis capacity`) asks this of its largest run before it runs the smallest.
 */
export function estimateSimulation(input: SimulationConfigInput, given: SimulationRuntime = {}): MemoryEstimate {
  return prepare(input, given, true);
}

function prepare(input: SimulationConfigInput, given: SimulationRuntime, estimateOnly: true): MemoryEstimate;
function prepare(input: SimulationConfigInput, given: SimulationRuntime, estimateOnly: false): PreparedRun;
function prepare(input: SimulationConfigInput, given: SimulationRuntime, estimateOnly: boolean): PreparedRun | MemoryEstimate {
  const config = SimulationConfigSchema.parse(input);
  // Sizes first: nothing below allocates before the run is known to fit.
  const sizeIssues = configLimitIssues(config);
  // A block too large is reported with what the GPU would hold, once the model is resolved.
  if (sizeIssues.some((i) => i.path[0] !== 'blockSizeTokens')) throw new RunLimitError(sizeIssues);
  const { runtime, registry } = withPolicyChecks(given, given.registry ?? defaultPolicyRegistry);
  const rng = new PartitionedRng(config.seed);

  const model = resolveRunModel(config, runtime.latency, sizeIssues);
  const { latency, latencyKind, totalKVBlocks: kvBlocks, kvBlocksSource: kvSource, tp, modelResolved, kvBlocksDerivation, kvTiers } = model;
  // The model facts P/D pools are sized from, when neither resolution nor the tiers read them.
  let { modelConfig } = model;
  const pdConfig = resolvePdConfig(config.pd);
  const peak = autoscalePeak(config, tp, pdConfig !== undefined ? 2 : 1);
  const scaleIssues = autoscaleLimitIssues(peak);
  if (scaleIssues.length > 0) throw new RunLimitError(scaleIssues);

  const ctx = (name: string, params: Record<string, unknown>): PolicyFactoryContext => ({
    numInstances: config.numInstances,
    params,
    random: GO_ROUTER_STREAMS.has(name) ? goRouterRandom(config.seed, name) : rng.stream(`policy/${name}`),
    blockSizeTokens: config.blockSizeTokens,
  });
  const admission = runtime.admission ?? registry.createAdmissionPolicy(config.admission.policy, ctx('admission', config.admission.params));
  const priority = runtime.priority ?? registry.createPriorityPolicy(config.priority.policy, ctx('priority', config.priority.params));
  const routingParams = config.routing.scorers !== undefined ? { ...config.routing.params, scorers: config.routing.scorers } : config.routing.params;
  const routing = runtime.routing ?? registry.createRoutingPolicy(config.routing.policy, ctx('router', routingParams));

  let pd: ResolvedPdSetup | undefined;
  if (pdConfig !== undefined) {
    if (modelConfig === undefined && !modelResolved) modelConfig = modelArchitecture(config);
    pd = resolvePdSetup({
      config,
      pd: pdConfig,
      latency,
      totalKVBlocks: kvBlocks,
      latencyGiven: runtime.latency !== undefined,
      modelConfig,
      tp,
      registry,
      ctx,
      routing,
      freshRouting: (stream) => runtime.routing ?? registry.createRoutingPolicy(config.routing.policy, ctx(stream, routingParams)),
      routingIsCustom: runtime.routing !== undefined,
      decider: runtime.decider,
      encodeDecider: runtime.encodeDecider,
    });
  }

  const groups: InstanceGroup[] = [{ count: config.numInstances, kvBlocks }];
  if (pd !== undefined) {
    // Pools may run other GPUs or TPs, so their caches differ: check and count each.
    groups.length = 0;
    for (let i = 0; i < config.numInstances; i++) {
      const blocks = pd.instance(i).totalKVBlocks;
      const g = groups.find((x) => x.kvBlocks === blocks);
      if (g !== undefined) g.count++;
      else groups.push({ count: 1, kvBlocks: blocks });
    }
    const poolIssues = groups.flatMap((g) => (g.kvBlocks === kvBlocks ? [] : kvBlockIssues(g.kvBlocks, 'derived', config, undefined)));
    if (poolIssues.length > 0) throw new RunLimitError(poolIssues);
  }
  // Replicas autoscaling may add hold caches like the largest startup ones.
  if (peak !== undefined) groups.push({ count: peak.instances - config.numInstances, kvBlocks: Math.max(...groups.map((g) => g.kvBlocks)), note: `autoscaled (${peak.bound})` });
  const workloadOptions = { seed: config.seed, blockSizeTokens: config.blockSizeTokens, horizonUs: config.horizonUs, onPhase: runtime.onPhase, adapters: adapterRegistryView(config.lora, config.model) };
  const sized = runtime.source !== undefined ? { requests: requestsOfSource(config) } : estimateOnly ? sizeWorkload(config.workload, workloadOptions) : undefined;
  const opened = sized === undefined ? openSizedWorkload(config.workload, workloadOptions) : { source: runtime.source, ...sized };
  const cpuTier: CpuTierSize | undefined = kvTiers === undefined ? undefined : { kind: kvTiers.kind, blocks: kvTiers.cpuBlocks };
  const size = { instances: groups, requests: opened.requests, requestsFrom: opened.requestsFrom, cpuTier, batchSlots: config.maxNumSeqs };
  const memory = checkMemory(runtime.memoryLimit, size, config);
  // (The second test only narrows the type: a source is missing only when estimating.)
  if (estimateOnly || opened.source === undefined) return memory;
  const onPhase = runtime.onPhase;
  onPhase?.({ kind: 'build-instances', instances: config.numInstances, built: 0 });

  const buildInstance = instanceConfigFactory({
    config,
    latency,
    totalKVBlocks: kvBlocks,
    kvTiers,
    priority,
    lora: loraSettings(config.lora),
    stepByStep: runtime.stepByStep,
    scheduler: (i) => runtime.scheduler?.(i) ?? registry.createScheduler(config.scheduler.policy, ctx(`scheduler/${i}`, config.scheduler.params)),
  });
  const instances: InstanceConfig[] = [];
  for (let i = 0; i < config.numInstances; i++) {
    instances.push(buildInstance(i, pd?.instance(i)));
    // Each instance allocates its KV cache: a large cluster takes seconds to build.
    onPhase?.({ kind: 'build-instances', instances: config.numInstances, built: i + 1 });
  }
  const lifecycle = resolveLifecycle({
    config,
    registry,
    ctx,
    tp,
    totalKVBlocks: kvBlocks,
    pd,
    layout: pd?.setup.layout ?? poolLayout(undefined, config.numInstances),
    newInstance: (i, pool) => buildInstance(i, pd !== undefined && (pool === 'prefill' || pool === 'decode') ? pd.pool(pool) : undefined),
    autoscaler: runtime.autoscaler,
  });

  if (lifecycle !== undefined) {
    const f = lifecycle.fleet;
    const placing = unplaceableGroupIssues(f.nodePools, lifecycle.autoscaling !== undefined ? [...f.initial, ...f.groups] : f.initial);
    if (placing.length > 0) throw new RunLimitError(placing);
  }
  if (lifecycle?.autoscaling !== undefined) {
    const largest = Math.max(...groups.map((g) => g.kvBlocks));
    const withOneMore = estimateMemory({ ...size, instances: [...groups, { count: 1, kvBlocks: largest }], includeRequests: config.includeRequests, timeseriesSamples: timeseriesSamplesOf(config) });
    lifecycle.autoscaling.ceiling = fleetCeiling({ counted: groups.reduce((n, g) => n + g.count, 0), estimate: memory, withOneMore, limit: runtime.memoryLimit });
  }

  const source = opened.source;
  const fc = config.flowControl;
  const w = opened.goodputSloTargets;
  const goodputTargets = mergeGoodputTargets(config.goodputSloTargets, w?.from === 'header' ? w.targets : undefined, w?.from === 'spec' ? w.targets : undefined);
  const cluster = new ClusterSimulator({
    instances,
    source,
    admission,
    priority,
    routing,
    admissionLatencyUs: config.admissionLatencyUs,
    routingLatencyUs: config.routingLatencyUs,
    snapshotRefreshIntervalUs: config.snapshotRefreshIntervalUs,
    cacheSignalDelayUs: (
      pd !== undefined ? pd.readsPrefixCache : routingReadsPrefixCache(config.routing.policy, routingParams.scorers as { name: string }[] | undefined, runtime.routing !== undefined)
    )
      ? config.cacheSignalDelayUs
      : 0,
    flowControl: resolveFlowControl(fc, runtime.saturationDetector),
    saturation: { queueDepthThreshold: fc.queueDepthThreshold, kvUtilizationThreshold: fc.kvUtilizationThreshold },
    horizonUs: config.horizonUs ?? Number.POSITIVE_INFINITY,
    observer: runtime.observer,
    ...(pd !== undefined ? { pd: pd.setup } : {}),
    // The saturation replay breaks ties between equal times by request id, as BLIS does.
    recordRequestIds: config.includeRequests || config.saturationAnalysis !== undefined,
    onProgress: runtime.onProgress,
    ...(lifecycle !== undefined ? { lifecycle } : {}),
    ...(config.timeseriesIntervalUs !== undefined ? { timeseries: { intervalUs: config.timeseriesIntervalUs, maxSamples: config.timeseriesMaxSamples } } : {}),
    ...(goodputTargets !== undefined ? { goodput: new GoodputRecorder(goodputTargets) } : {}),
  });
  const prepared: PreparedRun = {
    config,
    cluster,
    get endUs() {
      return cluster.endUs;
    },
    latency,
    latencyKind,
    totalKVBlocks: kvBlocks,
    kvBlocksSource: kvSource,
    kvBlocksDerivation,
    memory,
  };
  if (kvTiers !== undefined) prepared.kvTiers = kvTiers;
  if (given.saturationDetectors !== undefined) prepared.saturationDetectors = given.saturationDetectors;
  if ('warnings' in opened && opened.warnings !== undefined && opened.warnings.length > 0) prepared.workloadWarnings = opened.warnings;
  if (goodputTargets !== undefined) prepared.goodputTargets = goodputTargets;
  return prepared;
}

/** Requests a caller's own source will inject are unknown; a config's count is still a fair guess. */
function requestsOfSource(config: SimulationConfig): number | undefined {
  return config.workload.kind === 'synthetic' ? config.workload.numRequests : undefined;
}

/** The run's memory estimate; refuses a run that exceeds the limit given, before its instances exist. */
function checkMemory(limit: SimulationRuntime['memoryLimit'], size: Pick<MemoryEstimateInput, 'instances' | 'requests' | 'requestsFrom' | 'cpuTier' | 'batchSlots'>, config: SimulationConfig): MemoryEstimate {
  const estimate = estimateMemory({ ...size, includeRequests: config.includeRequests, timeseriesSamples: timeseriesSamplesOf(config) });
  const issues = limit === undefined ? [] : memoryLimitIssues(estimate, limit);
  if (issues.length > 0) throw new RunLimitError(issues.map((i) => ({ path: [], ...i })));
  return estimate;
}

/** Runs a prepared simulation and builds its result. */
export function runPrepared(prepared: PreparedRun): SimulationResult {
  const { cluster, config } = prepared;
  cluster.run();
  if (config.checkInvariants) cluster.checkConservation();
  const result = buildResult(cluster, {
    sloTtftUs: config.sloTtftUs,
    sloE2eUs: config.sloE2eUs,
    fitnessWeights: config.fitnessWeights as Partial<Record<FitnessMetric, number>> | undefined,
    includeRequests: config.includeRequests,
  });
  if (config.saturationAnalysis !== undefined) {
    const labels = runSaturationAnalysis(cluster, config.saturationAnalysis, undefined, prepared.saturationDetectors);
    // No completed request, no label: BLIS then prints no `saturation` either.
    if (Object.keys(labels).length > 0) result.saturation = labels;
  }
  return result;
}

/**
 * Simulates one configuration end to end and returns its result. Deterministic: the same
 * config (and runtime objects) gives the same result, field for field.
 */
export function simulate(input: SimulationConfigInput, runtime: SimulationRuntime = {}): SimulationResult {
  return runPrepared(prepareSimulation(input, runtime));
}
