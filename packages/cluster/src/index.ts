/**
 * `@blis/cluster`: many vLLM-style instances on one clock behind a gateway (admission, priority,
 * routing, flow control, P/D, KV tiers, autoscaling), run from one validated configuration.
 *
 * This root entry is the stable surface (semver): what a simulation user, a search framework
 * (sweeps, capacity search, `evaluate`) and a tool that validates configuration files need. The
 * engine's pieces are in `@blis/cluster/internal` (no semver promise); config arbitraries and
 * invariant checkers for property suites are in `@blis/cluster/testing`. The README's "What is
 * public" section says why each name is here.
 *
 * @module
 */

// Running a simulation.
export { simulate, prepareSimulation, estimateSimulation, runPrepared } from './simulate.js';
export type { PreparedRun } from './simulate.js';
export type { SimulationRuntime } from './simulation-runtime.js';
export type { PreparePhase } from './workload-source.js';

// The configuration: its schema (zod, and JSON Schema for other languages and editors), and the
// schema of each section that has a type of its own here, for checking or building a section by
// itself (a file holding one, such as the CLI's KV offload, LoRA and saturation files; a form).
export { SimulationConfigSchema, WorkloadSourceSchema } from './config-schema.js';
export type { SimulationConfig, SimulationConfigInput, WorkloadSource } from './config-schema.js';
export { simulationConfigJsonSchema, SIMULATION_CONFIG_JSON_SCHEMA_FILE } from './json-schema.js';
export { FlowControlSchema } from './flow-control/flow-control-schema.js';
export type { FlowControlConfig } from './flow-control/flow-control-schema.js';
export { KVOffloadSchema, KVOffloadTierSchema } from './kv-offload-schema.js';
export type { KVOffloadInput, KVOffloadSettings, KVOffloadTierSettings } from './kv-offload-schema.js';
// A `kv_offload` YAML file (or a trace header's block) read and checked as the CLI checks it.
export { parseKVOffloadConfig } from './kv-offload/parse-kv-offload-config.js';
export type {
  KVOffloadConfig,
  KVOffloadConfigOptions,
  KVOffloadConfigResult,
  KVOffloadDeviceClass,
  KVOffloadDeviceClasses,
  KVOffloadIssue,
  KVOffloadLocation,
} from './kv-offload/parse-kv-offload-config.js';
export { LoraSchema } from './lora/lora-schema.js';
export type { LoraConfig, LoraConfigInput } from './lora/lora-schema.js';
export { PdConfigSchema, PoolOverridesSchema } from './pd/pd-schema.js';
export type { PdConfigInput, PoolOverrides } from './pd/pd-schema.js';
export { AutoscalingSchema, DelaySchema, DrainPolicySchema, LifecycleSchema, NodePoolSchema, NodePoolsSchema } from './autoscale/autoscale-schema.js';
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
export { SaturationAnalysisSchema, type SaturationAnalysisInput, type SaturationAnalysisSettings } from './saturation-analysis/saturation-analysis-schema.js';

// What a run refuses with: each error names the config field or flag, the expected and found value.
export { RUN_LIMITS, type RunLimits } from './limits/run-limits.js';
export { RunLimitError, type RunLimitIssue } from './limits/run-limit-error.js';
export type { MemoryEstimate } from './limits/memory-estimate.js';
export type { MemoryLimit } from './limits/memory-limit.js';
export { KVTierConfigError } from './kv-tier-config-error.js';
export { PdConfigError } from './pd/pd-setup.js';

// The result.
export type { SimulationResult, RequestRecord, UnfinishedRequestRecord } from './results.js';
export type { GatewayMetrics } from './gateway-metrics.js';
export type { MetricsBlock } from './metrics-block.js';
export type { GroupMetrics } from './group-metrics.js';
export type { SloAttainment } from './slo-attainment.js';
export type { GoodputResult, GoodputClassResult, GoodputByDim } from './goodput/goodput-result.js';
export type { RequestOutcome } from './request-outcomes.js';
export type { KvTierCounters } from './kv-tier-metrics.js';
export type { PdMetrics, LatencySummaryMs } from './pd/pd-metrics.js';
export type { EncodeMetrics } from './encode/index.js';
export type { AutoscalingMetrics, ReplicaSecondsByState } from './autoscale/autoscale-metrics.js';
export type { AdapterMetrics } from './lora/adapter-metrics.js';
export type { CustomMetrics } from './custom-metrics.js';
export type { TimeSeriesResult, InstanceSeries, ClusterSeries } from './timeseries/timeseries-result.js';

// Scoring runs against each other (search frameworks, `blis run --fitness-weights`).
export { FITNESS_METRICS, parseFitnessWeights, computeFitness, normalizeLatencyUs, normalizeThroughput, FitnessWeightsError } from './fitness.js';
export type { FitnessMetric, FitnessResult } from './fitness.js';
export { jainIndex, coefficientOfVariation, maxMinRatio } from './fairness.js';

// After (or around) a run: the decision recorder its trace settings ask for, and the post-hoc
// saturation analysis over its completed requests (or a real server's).
export { createTraceRecorder, type TraceRecorderSetup } from './trace-recorder-setup.js';
export type { CustomPolicyNames } from './active-policies.js';
export { analyseSaturation, runSaturationAnalysis, completedRequestTimes } from './saturation-analysis/run-saturation-analysis.js';
