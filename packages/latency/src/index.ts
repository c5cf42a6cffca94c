// @blis/latency: step-time models and the catalogue they draw on. The root holds the models, the
// resolver that builds one for a (model, GPU, TP), the catalogue lookups and KV capacity from GPU
// memory; the models' parts that other @blis packages share are in `@blis/latency/internal`
// (unstable). README: "What is public".

export type { StepBatch, LatencyModel } from './latency-model.js';
export { BlackboxLatencyModel } from './blackbox-model.js';
export { RooflineLatencyModel } from './roofline-model.js';
export { TrainedPhysicsLatencyModel } from './trained-physics/trained-physics-model.js';
export { TRAINED_PHYSICS_DEFAULTS } from './trained-physics/coefficients.js';
export { LatencyConfigError } from './errors.js';
export type { ModelArchitecture } from './model-config.js';
export type { StepModelConfig } from './step-model-config.js';
export { parseModelConfig, loadModelConfig } from './model-config.js';
export type { GpuSpec } from './hardware.js';
export { hardwareSpec, knownHardware } from './hardware.js';
export type { CoefficientEntry, ModelDefault, WorkloadPreset } from './catalogue.js';
export {
  knownModels,
  modelDefault,
  coefficientsFor,
  findCoefficients,
  workloadPreset,
  workloadPresetNames,
} from './catalogue.js';
export { resolveLatency } from './resolve.js';
export type { LatencyModelKind, ResolveLatencyOptions, ResolvedLatency } from './resolve.js';
export { deriveKVCapacity, deriveTotalKVBlocks } from './kv-capacity.js';
export type { KVCapacityDerivation, KVCapacityInput } from './kv-capacity.js';
