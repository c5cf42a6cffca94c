// @blis/engine: the discrete-event kernel and the single-instance vLLM simulator. The root holds
// what runs one instance (runInstance, InstanceSimulator), the request it simulates and how to
// feed it, the seeded RNG and the engine's errors; the kernel's parts that @blis/cluster builds
// on are in `@blis/engine/internal` (unstable). README: "What is public".

export { ClockRegressionError, MAX_CLOCK_US } from './clock.js';
export { PartitionedRng } from './rng.js';
export type { RequestSpec, RequestSource, RequestOutcome } from './request-spec.js';
export { makeRequestSpec, ArrayRequestSource } from './request-spec.js';
export { RequestPart, RequestState, SimRequest } from './request.js';
export type { RequestPartValue, RequestStateValue } from './request.js';
export { InstanceSimulator } from './instance-simulator.js';
export type { InstanceHooks } from './instance-hooks.js';
export type { InstanceConfig } from './instance-config.js';
export { INSTANCE_DEFAULTS } from './instance-config.js';
export { InvariantViolation } from './invariant-error.js';
export type { Distribution } from './distribution.js';
export { runInstance } from './run-instance.js';
export type { RunInstanceOptions, RunInstanceResult } from './run-instance.js';
export type { LoraSettings, AdapterDecl, StepOverheadTier } from './lora/lora-settings.js';
