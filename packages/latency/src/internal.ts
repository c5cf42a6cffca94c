/**
 * `@blis/latency/internal`: the step-time models' parts that `@blis/engine`, `@blis/cluster`, the
 * CLI and this repository's tests share: the step batch builder, the raw model-config catalogue,
 * the step-model config parser, KV capacity's pieces (reserves, weight bytes, KV bytes per
 * token, the resolved block count and its description) and the MoE parallelism checks.
 *
 * UNSTABLE: no semver promise. Names here may change or disappear in any release; a user needs
 * only the package root.
 *
 * @module internal
 */

export { createStepBatch } from './latency-model.js';
export type { StepBases } from './trained-physics/step-bases.js';
export { parseStepModelConfig, isMoE, effectiveWeightBytesPerParam } from './step-model-config.js';
export { modelConfigRaw } from './catalogue.js';
export {
  ACTIVATION_RESERVE_GIB,
  DEFAULT_TOTAL_KV_BLOCKS,
  NON_TORCH_RESERVE_GIB,
  describeKVCapacity,
  resolveKVBlocks,
} from './kv-capacity.js';
export type { ResolveKVBlocksInput, ResolvedKVBlocks } from './kv-capacity.js';
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
