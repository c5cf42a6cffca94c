// A bit-exact port of Go's math/rand (v1) seeded generator, so that workloads drawn here match
// BLIS's (inference-sim) from the same seed.
export { GoRandSource, type GoSeed } from './go-source.js';
export { GoRand } from './go-rand.js';
export { fnv1a64 } from './fnv1a64.js';
export { goSubsystemSeed, goSubsystemRand, GoPartitionedRng, GO_WORKLOAD_SUBSYSTEM } from './partitioned-rng.js';
