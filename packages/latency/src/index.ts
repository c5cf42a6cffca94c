export type { StepBatch, LatencyModel } from './latency-model.js';
export { createStepBatch } from './latency-model.js';
export { BlackboxLatencyModel } from './blackbox-model.js';
export { RooflineLatencyModel } from './roofline-model.js';
export { TrainedPhysicsLatencyModel } from './trained-physics/trained-physics-model.js';
export type { StepBases } from './trained-physics/step-bases.js';
export { TRAINED_PHYSICS_DEFAULTS } from './trained-physics/coefficients.js';
export { LatencyConfigError } from './errors.js';
export type { ModelArchitecture } from './model-config.js';
export type { StepModelConfig } from './step-model-config.js';
export { parseStepModelConfig, isMoE, effectiveWeightBytesPerParam } from './step-model-config.js';
export { parseModelConfig, loadModelConfig } from './model-config.js';
export type { GpuSpec } from './hardware.js';
export { hardwareSpec, knownHardware } from './hardware.js';
export type { CoefficientEntry, ModelDefault, WorkloadPreset } from './catalogue.js';
export {
  knownModels,
  modelDefault,
  coefficientsFor,
  findCoefficients,
  modelConfigRaw,
  workloadPreset,
  workloadPresetNames,
} from './catalogue.js';
export { resolveLatency } from './resolve.js';
export type { LatencyModelKind, ResolveLatencyOptions, ResolvedLatency } from './resolve.js';
export {
  ACTIVATION_RESERVE_GIB,
  DEFAULT_TOTAL_KV_BLOCKS,
  NON_TORCH_RESERVE_GIB,
  deriveKVCapacity,
  deriveTotalKVBlocks,
  describeKVCapacity,
  resolveKVBlocks,
} from './kv-capacity.js';
export type { KVCapacityDerivation, KVCapacityInput, ResolveKVBlocksInput, ResolvedKVBlocks } from './kv-capacity.js';
export { capacityWeightBytes, capacityWeightBytesPerRank, routedExpertParams } from './kv-capacity-weights.js';
export { kvBytesPerTokenPerRank, parseKVShape } from './kv-bytes-per-token.js';
export type { KVShape } from './kv-bytes-per-token.js';
export { DEFAULT_MOE_COMM_BACKEND, MOE_COMM_BACKENDS, isMoECommBackend, moeCommFamily } from './moe/comm-backends.js';
export type { MoECommBackend, MoECommFamily } from './moe/comm-backends.js';
export { NO_MOE_PARALLELISM, checkMoEParallelism, checkMoEParallelismFor, usesMoEParallelism } from './moe/moe-parallelism.js';
export type { MoEParallelism } from './moe/moe-parallelism.js';
export { balancedExpertLoad } from './moe/expert-placement.js';
export type { ExpertLoad } from './moe/expert-placement.js';
export { dispatchLayerBasis } from './moe/dispatch-basis.js';
export type { DispatchShape } from './moe/dispatch-basis.js';
