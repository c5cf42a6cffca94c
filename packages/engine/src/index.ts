export { EventQueue } from './event-queue.js';
export { SimClock, ClockRegressionError } from './clock.js';
export { PartitionedRng, RandomStream, fnv1a32, deriveSeed } from './rng.js';
export type { RequestSpec, RequestSource, RequestOutcome } from './request-spec.js';
export { makeRequestSpec, ArrayRequestSource } from './request-spec.js';
