/**
 * `@blis/engine/internal`: the discrete-event kernel's parts that `@blis/cluster` and the other
 * `@blis/*` packages build on: the event queue and clock, event kinds and their classes, the
 * request table and wait queue, per-instance metrics, growable arrays, percentile summaries,
 * seed derivation and the LoRA residency pieces.
 *
 * UNSTABLE: no semver promise. Names here may change or disappear in any release; a user needs
 * only the package root.
 *
 * @module internal
 */

export { EventQueue } from './event-queue.js';
export { SimClock, MAX_CLOCK_TEXT, minRateWithinClock } from './clock.js';
export { RandomStream, fnv1a32, deriveSeed } from './rng.js';
export {
  EventKind,
  CLASS_STRIDE,
  INSTANCE_CLASS_BASE,
  instanceClass,
  clusterClass,
  instanceOfClass,
} from './event-kinds.js';
export type { EventKindValue } from './event-kinds.js';
export { RequestViewRecord } from './request.js';
export { RequestTable } from './request-table.js';
export { WaitQueue } from './wait-queue.js';
export { InstanceMetrics } from './instance-metrics.js';
export { GrowableFloat64 } from './growable-array.js';
export { percentile, summarizeUsAsMs, summarizeWeightedUsAsMs, summarizeSortedWeightedUsAsMs, sortedWeighted, mergeWeighted } from './distribution.js';
export type { WeightedSample } from './distribution.js';
export { AdapterCost } from './lora/adapter-cost.js';
export { ResidentSet } from './lora/resident-set.js';
export { InstanceLora } from './lora/instance-lora.js';
