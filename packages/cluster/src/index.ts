export { simulate, prepareSimulation, estimateSimulation, runPrepared } from './simulate.js';
export type { SimulationRuntime } from './simulation-runtime.js';
export type { PreparedRun } from './simulate.js';
export {
  SimulationConfigSchema,
  WorkloadSourceSchema,
  SyntheticWorkloadSchema,
  SpecWorkloadSchema,
  TraceWorkloadSchema,
  TraceSettingsSchema,
  FlowControlSchema,
  ScorerWeightSchema,
} from './config-schema.js';
export type { SimulationConfig, SimulationConfigInput, WorkloadSource } from './config-schema.js';
export { simulationConfigJsonSchema, SIMULATION_CONFIG_JSON_SCHEMA_FILE } from './json-schema.js';
export { ClusterSimulator } from './cluster-simulator.js';
export { CompletionLog, Interner } from './completion-log.js';
export type { SessionStats } from './completion-log.js';
export type { ClusterSetup, ClusterCounters, FlowControlSettings } from './cluster-setup.js';
export { buildResult } from './results.js';
export type { GoodputResult, GoodputClassResult, GoodputByDim } from './goodput/goodput-result.js';
export { GoodputRecorder, goodputClass } from './goodput/goodput-recorder.js';
export type { ClassLog } from './goodput/goodput-recorder.js';
export type { SimulationResult, RequestRecord, UnfinishedRequestRecord, ResultOptions } from './results.js';
export type { GatewayMetrics } from './gateway-metrics.js';
export type { MetricsBlock } from './metrics-block.js';
export type { GroupMetrics } from './group-metrics.js';
export type { SloAttainment } from './slo-attainment.js';
export type { RequestOutcome, LeftRequest } from './request-outcomes.js';
export type { KvTierCounters } from './kv-tier-metrics.js';
export { FITNESS_METRICS, parseFitnessWeights, computeFitness, normalizeLatencyUs, normalizeThroughput, FitnessWeightsError } from './fitness.js';
export type { FitnessMetric, FitnessResult } from './fitness.js';
export { jainIndex, coefficientOfVariation, maxMinRatio } from './fairness.js';
export { FlowController, type FlowCounts, type FlowHost } from './flow-control/flow-controller.js';
export { GatewayBands, type Waiting, type EnqueueOutcome, type GatewayBandsOptions } from './flow-control/gateway-bands.js';
export type { FlowFairness, BandFlows } from './flow-control/flow-fairness.js';
export { flowControlSettings, resolveFlowControl } from './flow-control/resolve-flow-control.js';
export type { FlowControlConfig } from './flow-control/flow-control-schema.js';
export { LiveSnapshot } from './instance-snapshot.js';
export { ClusterRouterState } from './router-state.js';
export { openWorkload, openSizedWorkload, sizeWorkload } from './workload-source.js';
export type { OpenWorkloadOptions, OpenedWorkload, PreparePhase } from './workload-source.js';
export { KVOffloadSchema, KVOffloadTierSchema, offloadBlockSizeIssue } from './kv-offload-schema.js';
export { LoraSchema, LoraAdapterSchema, LORA_DEFAULTS, loraSettings } from './lora/lora-schema.js';
export type { LoraConfig, LoraConfigInput } from './lora/lora-schema.js';
export type { AdapterMetrics } from './lora/adapter-metrics.js';
export type { AdapterRegistryView } from './lora/adapter-references.js';
export type { KVOffloadInput, KVOffloadSettings, KVOffloadTierSettings } from './kv-offload-schema.js';
export { resolveKVTiers, resolveOffloadChain, offloadPerBlockBytes } from './kv-tiers-config.js';
export type { KVTierSettings } from './kv-tiers-config.js';
export { isShippedDeviceClass, resolveSecondaryTier } from './kv-offload-tiers.js';
export { KVTierConfigError } from './kv-tier-config-error.js';
export { reconcileReplayKVOffload, kvOffloadFromHeader, kvOffloadDifferences } from './kv-offload-replay.js';
export type { ReplayKVOffloadInput, ReplayKVOffloadOutcome, KVOffloadDifference } from './kv-offload-replay.js';
export { PdConfigSchema, PoolOverridesSchema, PD_DEFAULTS, resolvePdConfig, pdTopologyIssues } from './pd/pd-schema.js';
export type { PdConfigInput, PoolOverrides, ResolvedPdConfig } from './pd/pd-schema.js';
export { PdCoordinator, PD_PREFILL_ROUTING, PD_TRANSFER_START, PD_TRANSFER_DONE } from './pd/pd-coordinator.js';
export type { PdSetup, PdHost, PdStats } from './pd/pd-coordinator.js';
export { ParentRequest } from './pd/parent-request.js';
export { KvTransferLink, transferDurationUs } from './pd/kv-transfer.js';
export type { KvTransferSettings } from './pd/kv-transfer.js';
export { PoolView } from './pd/pool-view.js';
export { poolLayout, servesPrefill, servesDecode } from './pd/pool-layout.js';
export { PdConfigError, resolvePdSetup } from './pd/pd-setup.js';
export type { PdSetupInput, PoolInstanceSettings, ResolvedPdSetup } from './pd/pd-setup.js';
export type { PdMetrics, LatencySummaryMs } from './pd/pd-metrics.js';
export { EncodeStage, encodeMetrics, encodeTopologyIssues } from './encode/index.js';
export type { EncodeFields, EncodeMetrics, EncodeOutcome, EncodeSetup, EncodeStats } from './encode/index.js';
export {
  AutoscalingSchema,
  DelaySchema,
  DrainPolicySchema,
  LifecycleSchema,
  NodePoolSchema,
  NodePoolsSchema,
} from './autoscale/autoscale-schema.js';
export type {
  AutoscalingConfig,
  AutoscalingConfigInput,
  DelaySettings,
  DrainPolicy,
  LifecycleConfig,
  LifecycleConfigInput,
  NodePoolConfig,
  NodePoolConfigInput,
} from './autoscale/autoscale-schema.js';
export type { AutoscalingMetrics, ReplicaSecondsByState } from './autoscale/autoscale-metrics.js';
export { INSTANCE_STATE_NAMES, InstanceState, canTransition } from './autoscale/lifecycle-state.js';
export type { InstanceStateValue } from './autoscale/lifecycle-state.js';
export { Fleet, FLEET_ACTUATE, FLEET_LOADED, FLEET_NODE_READY, FLEET_TICK, FLEET_WARMUP_END } from './autoscale/fleet.js';
export type { FleetHost, FleetReplica, FleetSettings, GroupSpec } from './autoscale/fleet.js';
export { NodeInventory } from './autoscale/node-inventory.js';
export type { Placement, PoolNode, PoolState } from './autoscale/node-inventory.js';
export { Autoscaler } from './autoscale/autoscaler.js';
export type { AutoscalerHost, AutoscalerStats } from './autoscale/autoscaler.js';
export { resolveLifecycle } from './autoscale/lifecycle-setup.js';
export type { LifecycleSetup, LifecycleSetupInput } from './autoscale/lifecycle-setup.js';
export { createTraceRecorder, scaleOscillationWindowUs } from './trace-recorder-setup.js';
export { activePolicies, type CustomPolicyNames } from './active-policies.js';
export type { TraceRecorderSetup } from './trace-recorder-setup.js';
export { collectCustomMetrics } from './custom-metrics.js';
export type { CustomMetrics } from './custom-metrics.js';
export { TimeSeriesRecorder } from './timeseries/timeseries-recorder.js';
export type { TimeSeriesHost, InstanceColumns, ClusterColumns } from './timeseries/timeseries-recorder.js';
export { SampleColumn } from './timeseries/sample-column.js';
export { timeseriesResult } from './timeseries/timeseries-result.js';
export type { TimeSeriesResult, InstanceSeries, ClusterSeries } from './timeseries/timeseries-result.js';
export * from './limits/index.js';
export {
  SaturationAnalysisSchema,
  BacklogDriftSettingsSchema,
  DEFAULT_SATURATION_FINAL_WINDOW_US,
  finalWindowUsOf,
  type SaturationAnalysisInput,
  type SaturationAnalysisSettings,
} from './saturation-analysis/saturation-analysis-schema.js';
export { analyseSaturation, runSaturationAnalysis, completedRequestTimes, blisRequestId } from './saturation-analysis/run-saturation-analysis.js';
