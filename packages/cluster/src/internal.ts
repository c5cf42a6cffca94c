/**
 * `@blis/cluster/internal`: the engine's pieces, for the `blis` CLI, the other `@blis` packages
 * and their tests, and advanced users who drive or inspect a cluster themselves.
 *
 * UNSTABLE: nothing here is covered by semver. Names, signatures and behaviour may change in any
 * release, minor and patch included; the `@blis/*` packages that use this entry ship in the same
 * release. A program that needs only to run simulations and read their results should use the
 * root entry, `@blis/cluster`, whose surface is stable.
 *
 * @module
 */

// The shared-clock loop, its completion log and the result built from it.
export { ClusterSimulator } from './cluster-simulator.js';
export type { ClusterSetup, ClusterCounters, FlowControlSettings } from './cluster-setup.js';
export { CompletionLog, Interner, type SessionStats } from './completion-log.js';
export type { LeftRequest } from './request-outcomes.js';
export { buildResult, type ResultOptions, type RunSummary } from './results.js';
export { GoodputRecorder, type ClassLog } from './goodput/goodput-recorder.js';
export { LiveSnapshot } from './instance-snapshot.js';
export { ClusterRouterState } from './router-state.js';

// Opening a config's workload as a request stream (and sizing it before a run).
export { openWorkload, openSizedWorkload, sizeWorkload, type OpenWorkloadOptions, type OpenedWorkload } from './workload-source.js';
export type { AdapterRegistryView } from './lora/adapter-references.js';
export { WorkloadMemo, type WorkloadMemoLimits } from './workload-memo/workload-memo.js';
// Preparing a run from a config already validated, with the memo above.
export { prepareValidated, runPreparedSummary, type PrepareOptions, type PreparedRun } from './simulate.js';
export type { SimulationRuntime } from './simulation-runtime.js';

// Gateway flow control.
export { FlowController, type FlowCounts, type FlowHost } from './flow-control/flow-controller.js';
export { GatewayBands, type Waiting, type EnqueueOutcome, type GatewayBandsOptions } from './flow-control/gateway-bands.js';
export type { FlowFairness, BandFlows } from './flow-control/flow-fairness.js';
export { flowControlSettings, resolveFlowControl } from './flow-control/resolve-flow-control.js';

// Prefill/decode disaggregation and the encode stage; the event kinds they schedule.
export { PdCoordinator, PD_PREFILL_ROUTING, PD_TRANSFER_START, PD_TRANSFER_DONE } from './pd/pd-coordinator.js';
export type { PdSetup, PdHost, PdStats } from './pd/pd-coordinator.js';
export { ParentRequest } from './pd/parent-request.js';
export { KvTransferLink, type KvTransferSettings } from './pd/kv-transfer.js';
export { PoolView } from './pd/pool-view.js';
export { resolvePdConfig, type ResolvedPdConfig } from './pd/pd-schema.js';
export { resolvePdSetup, type PdSetupInput, type PoolInstanceSettings, type ResolvedPdSetup } from './pd/pd-setup.js';
export { EncodeStage, type EncodeOutcome, type EncodeSetup, type EncodeStats } from './encode/index.js';

// Autoscaling: the fleet of replicas, the node pools they are placed on, the autoscaler; the
// event kinds the fleet schedules.
export { Fleet, FLEET_ACTUATE, FLEET_LOADED, FLEET_NODE_READY, FLEET_TICK, FLEET_WARMUP_END } from './autoscale/fleet.js';
export type { FleetHost, FleetReplica, FleetSettings, GroupSpec } from './autoscale/fleet.js';
export { NodeInventory, type Placement, type PoolNode, type PoolState } from './autoscale/node-inventory.js';
export { Autoscaler, type AutoscalerHost, type AutoscalerStats } from './autoscale/autoscaler.js';
export { INSTANCE_STATE_NAMES, InstanceState, type InstanceStateValue } from './autoscale/lifecycle-state.js';
export { resolveLifecycle, type LifecycleSetup, type LifecycleSetupInput } from './autoscale/lifecycle-setup.js';

// Tiered KV cache: resolving a config's tiers, the offload file's checks, replaying a trace's chain.
export { offloadBlockSizeIssue } from './kv-offload-schema.js';
export { resolveKVTiers, resolveOffloadChain, offloadPerBlockBytes, type KVTierSettings } from './kv-tiers-config.js';
export { isShippedDeviceClass, resolveSecondaryTier } from './kv-offload-tiers.js';
export { reconcileReplayKVOffload, kvOffloadFromHeader, kvOffloadDifferences } from './kv-offload-replay.js';
export type { ReplayKVOffloadInput, ReplayKVOffloadOutcome, KVOffloadDifference } from './kv-offload-replay.js';

// Time series sampling.
export { TimeSeriesRecorder, type TimeSeriesHost, type InstanceColumns, type ClusterColumns } from './timeseries/timeseries-recorder.js';
export { SampleColumn } from './timeseries/sample-column.js';
export { timeseriesResult } from './timeseries/timeseries-result.js';

// The checks behind `prepareSimulation`'s refusals, and the memory estimate's parts.
export { configLimitIssues, kvBlockIssues, type KVDerivation } from './limits/config-limits.js';
export { MEMORY_COSTS, estimateMemory, formatBytes, type CpuTierSize, type InstanceGroup, type MemoryEstimateInput } from './limits/memory-estimate.js';
export { heapMegabytesFor, memoryLimitIssues } from './limits/memory-limit.js';
export { autoscaleLimitIssues, autoscalePeak, type AutoscalePeak } from './limits/autoscale-peak.js';
export type { FleetCeiling } from './limits/fleet-ceiling.js';

// The policy names a config resolves to, and the trace recorder's oscillation window.
export { activePolicies } from './active-policies.js';
export { scaleOscillationWindowUs } from './trace-recorder-setup.js';
