import { type InstanceConfig, PartitionedRng, type RequestSource } from '@blis/engine';
import type { SloDimTargets } from '@blis/workload';
import { type GoRand, goSubsystemRand, mergeGoodputTargets } from '@blis/workload/internal';
import type { KVTierConfig } from '@blis/kvcache';
import { LatencyConfigError, type LatencyModel, type ModelArchitecture, loadModelConfig, modelDefault, parseModelConfig } from '@blis/latency';
import { describeKVCapacity, modelConfigRaw } from '@blis/latency/internal';
import {
  type AdmissionPolicy,
  type AutoScalePolicy,
  type CallWatch,
  type DisaggregationDecider,
  type EncodeDecider,
  type InstanceScheduler,
  type PolicyFactoryContext,
  type PolicyKind,
  type PolicyRegistry,
  type PoolType,
  type PostHocSaturationDetector,
  type PriorityPolicy,
  type RoutingPolicy,
  type SaturationDetector,
  defaultPolicyRegistry,
} from '@blis/policies';
import type { DecisionObserver } from '@blis/trace';
import { ClusterSimulator } from './cluster-simulator.js';
import { type SimulationConfig, type SimulationConfigInput, SimulationConfigSchema } from './config-schema.js';
import type { FitnessMetric } from './fitness.js';
import { type SimulationResult, buildResult } from './results.js';
import { type PreparePhase, openSizedWorkload, sizeWorkload } from './workload-source.js';
import { routingReadsPrefixCache } from './cache-signal.js';
import { resolveKVTiers } from './kv-tiers-config.js';
import { resolveInstanceModel } from './resolve-instance-model.js';
import { loraSettings } from './lora/lora-schema.js';
import { adapterRegistryView } from './lora/adapter-references.js';
import { resolvePdConfig } from './pd/pd-schema.js';
import { resolveFlowControl } from './flow-control/resolve-flow-control.js';
import { type ResolvedPdSetup, resolvePdSetup } from './pd/pd-setup.js';
import { poolLayout } from './pd/pool-layout.js';
import { resolveLifecycle } from './autoscale/lifecycle-setup.js';
import { withPolicyChecks } from './policy-checks.js';
import { RunLimitError } from './limits/run-limit-error.js';
import { RUN_LIMITS } from './limits/run-limits.js';
import { type KVDerivation, configLimitIssues, kvBlockIssues } from './limits/config-limits.js';
import { kvDerivationOf } from './limits/kv-derivation.js';
import { type CpuTierSize, type InstanceGroup, type MemoryEstimate, type MemoryEstimateInput, estimateMemory, timeseriesSamplesOf } from './limits/memory-estimate.js';
import { type MemoryLimit, memoryLimitIssues } from './limits/memory-limit.js';
import { autoscaleLimitIssues, autoscalePeak } from './limits/autoscale-peak.js';
import { fleetCeiling } from './limits/fleet-ceiling.js';
import { unplaceableGroupIssues } from './limits/unplaceable-groups.js';
import { GO_ROUTER_STREAMS, goRouterRandom } from './router-random.js';
import { runSaturationAnalysis } from './saturation-analysis/run-saturation-analysis.js';
import { GoodputRecorder } from './goodput/goodput-recorder.js';

/** Things a library caller can hand to {@link simulate} that are not plain data. */
export interface SimulationRuntime {
  /** Use this request stream instead of `config.workload`. */
  source?: RequestSource;
  /** Use this latency model instead of resolving `config.model`. */
  latency?: LatencyModel;
  /**
   * Run the reference engine: every running request advanced every step, none in bulk. Same
   * results, slower: the oracle of the bulk engine's differential tests.
   */
  stepByStep?: boolean;
  /** Policy objects that replace the named ones (custom policies). */
  admission?: AdmissionPolicy;
  priority?: PriorityPolicy;
  routing?: RoutingPolicy;
  /** A saturation detector that replaces `config.flowControl.saturationDetector` (custom detectors). */
  saturationDetector?: SaturationDetector;
  /** A P/D decider object that replaces `config.pd.decider` (custom deciders). */
  decider?: DisaggregationDecider;
  /** An E/P/D encode decider object that replaces `config.pd.encodeDecider` (used only with `pd.encodeInstances` > 0). */
  encodeDecider?: EncodeDecider;
  /** An autoscaler per scaling group (`monolithic`, or the P/D pool) replacing `config.autoscaling.policy`. */
  autoscaler?: (pool: PoolType) => AutoScalePolicy;
  /** One scheduler per instance (schedulers may keep per-instance state). */
  scheduler?: (instanceIndex: number) => InstanceScheduler;
  /** Registry to resolve policy names in (default: the built-in catalogue). */
  registry?: PolicyRegistry;
  /** Decision-trace observer (the CLI wires `@blis/trace`'s recorder here). */
  observer?: DecisionObserver;
  onProgress?: (done: number, nowUs: number) => void;
  /**
   * Check every policy, built-in ones included: read-only views of what they are handed (the
   * first write stops the run), answers within the contract. Slow; for tests and development.
   * The policy objects given here are always checked (without read-only views unless this is on).
   */
  checkPolicies?: boolean;
  /** Wall-clock budget, in ms, of each call of a policy object given here (default: none). */
  policyBudgetMs?: number;
  /** Where each kind's policy object came from (a module path), named in its errors. */
  policySources?: Partial<Record<PolicyKind, string>>;
  /**
   * Told when each call of a policy object given here starts and ends, so that a watchdog
   * outside the run can stop a call that never returns and name it (see `GuardOptions.watch`).
   */
  policyWatch?: CallWatch;
  /**
   * Refuse (a {@link RunLimitError}) a run whose memory estimate exceeds `bytes`; `what` says
   * whose memory that is, in the message. The CLI passes the machine's; unset = no check.
   */
  memoryLimit?: MemoryLimit;
  /** Told before each step of preparing the run that may take long on a large input (reading a spec, building instances). */
  onPhase?: (phase: PreparePhase) => void;
  /**
   * Post-hoc saturation detectors of one's own, one factory each (a fresh detector per replay):
   * with `config.saturationAnalysis` they replay the run after the built-in ones named there.
   */
  saturationDetectors?: readonly (() => PostHocSaturationDetector)[];
}

/** What a prepared run knows besides its result: the resolved pieces, for reporting. */
export interface PreparedRun {
  config: SimulationConfig;
  cluster: ClusterSimulator;
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

  let latency = runtime.latency;
  // A latency model handed in has no DP/EP terms to feed: asking for them would change nothing.
  if (latency !== undefined && (config.dp > 1 || config.enableExpertParallel || config.moeCommBackend !== undefined))
    throw new LatencyConfigError(`dp: expected dp 1 without enableExpertParallel or moeCommBackend beside a latency model given at run time (only the built-in trained-physics has data/expert-parallel terms), found dp ${config.dp}`);
  let latencyKind = latency?.kind ?? 'custom';
  let kvBlocks = config.totalKVBlocks;
  let kvSource = kvBlocks !== undefined ? 'flag' : 'default';
  // The model facts offload blocks are sized from, when the latency model was not resolved.
  let modelConfig: ModelArchitecture | undefined;
  let tp = config.tp ?? modelDefault(config.model)?.tp ?? 1;
  let modelResolved = false;
  let derivation: KVDerivation | undefined;
  let kvBlocksDerivation: string | undefined;
  if (latency === undefined || kvBlocks === undefined) {
    const { resolved, kv } = resolveInstanceModel(config);
    if (latency === undefined) {
      latency = resolved.model;
      latencyKind = resolved.kind;
    }
    kvBlocks = kv.blocks;
    kvSource = kv.source;
    modelConfig = resolved.modelConfig;
    tp = resolved.tp;
    modelResolved = true;
    if (kv.source === 'derived') {
      derivation = kvDerivationOf(resolved, kv.derivation);
      kvBlocksDerivation = describeKVCapacity(kv.derivation);
    }
  }
  const blockIssues = kvBlockIssues(kvBlocks, kvSource, config, derivation);
  if (blockIssues.length > 0 || sizeIssues.length > 0)
    throw new RunLimitError(blockIssues.some((i) => i.path[0] === 'blockSizeTokens') ? blockIssues : [...sizeIssues, ...blockIssues]);
  if (config.kvOffload !== undefined && config.kvOffload.perBlockBytes === undefined && !modelResolved) modelConfig = modelArchitecture(config);
  const kvTiers = resolveKVTiers(config, modelConfig, tp, config.blockSizeTokens);
  if (kvTiers?.kind === 'offload' && kvTiers.cpuBlocks > RUN_LIMITS.maxKVBlocksPerInstance)
    throw new RunLimitError([
      { path: ['kvOffload', 'cpuBytesToUse'], expected: `at most ${RUN_LIMITS.maxKVBlocksPerInstance} CPU KV blocks per instance`, found: `${kvTiers.cpuBytesToUse} bytes (${kvTiers.cpuBlocks} blocks of ${kvTiers.perBlockBytes} bytes)` },
    ]);
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

  const lora = loraSettings(config.lora);
  const buildInstance = (i: number, pool: ReturnType<ResolvedPdSetup['instance']> | undefined): InstanceConfig => ({
    index: i,
    id: `instance_${i}`,
    latency: pool?.latency ?? latency,
    totalKVBlocks: pool?.totalKVBlocks ?? kvBlocks,
    // Transfer jitter draws from a stream of its own per instance (BLIS's kv-offload partition),
    // and only when a device sets jitter, so other streams never shift.
    ...(kvTiers !== undefined ? { kvTiers, kvTierNormal: jitterSource(config.seed) } : {}),
    blockSizeTokens: config.blockSizeTokens,
    maxNumSeqs: config.maxNumSeqs,
    maxNumBatchedTokens: config.maxNumBatchedTokens,
    longPrefillTokenThreshold: config.longPrefillTokenThreshold,
    prefixHitPrefillStart: config.prefixHitPrefillStart,
    maxModelLen: pool?.maxModelLen ?? config.maxModelLen,
    scheduler: runtime.scheduler?.(i) ?? registry.createScheduler(config.scheduler.policy, ctx(`scheduler/${i}`, config.scheduler.params)),
    priority,
    preemptionPolicy: config.preemptionPolicy,
    checkInvariants: config.checkInvariants,
    stepByStep: runtime.stepByStep,
    ...(lora !== undefined ? { lora } : {}),
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
  const prepared: PreparedRun = { config, cluster, latency, latencyKind, totalKVBlocks: kvBlocks, kvBlocksSource: kvSource, kvBlocksDerivation, memory };
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

/** The model's config.json as latency resolution would read it: `modelConfigPath`, else the catalogue's. */
function modelArchitecture(config: SimulationConfig): ModelArchitecture | undefined {
  if (config.modelConfigPath !== undefined) return loadModelConfig(config.modelConfigPath);
  const raw = modelConfigRaw(config.model);
  return raw === undefined ? undefined : parseModelConfig(raw, `catalogue config of ${config.model}`);
}

/**
 * An instance's offload jitter draws as BLIS makes them: each instance's KV store seeds its own
 * `kv-offload` stream from the run seed (sim/kv/register.go), so every instance draws the same
 * sequence of Go `NormFloat64`s. Seeded at the first draw: only jittered tiers draw.
 */
function jitterSource(seed: number): () => number {
  let stream: GoRand | undefined;
  return () => {
    stream ??= goSubsystemRand(BigInt(seed), 'kv-offload');
    return stream.normFloat64();
  };
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
