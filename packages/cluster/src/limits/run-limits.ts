import { MAX_SPEC_CLIENTS, MAX_TOKENS_PER_REQUEST, YAML_LIMITS } from '@blis/workload/internal';

/**
 * The largest run BLIS accepts, checked on the validated config before anything is allocated.
 * Each bound is far beyond any study we know of, and low enough that a run within it fits a
 * typed array and a workstation's memory (docs/limits.md gives the reasoning for each number).
 * The memory estimate (`estimateSimulation`) then compares what is left with the machine.
 */
export const RUN_LIMITS = {
  /** Instances of a cluster: the largest fleets studied have a few thousand replicas. */
  maxInstances: 10_000,
  /**
   * KV blocks per instance (2^26): one instance's cache arrays are then at most about 3 GiB, and
   * its largest typed array (the free ring's hashes, 8 bytes × 2^27) stays within V8's limit. A
   * GPU holding a whole 8-GPU node of KV at one token per block needs about a tenth of this.
   */
  maxKVBlocksPerInstance: 67_108_864,
  /** KV blocks over every instance (2^30): about 50 GiB of cache arrays. */
  maxKVBlocksTotal: 1_073_741_824,
  /**
   * Sequences an instance batches (2^20): its batch arrays (60 bytes a slot) are allocated up
   * front; vLLM's max_num_seqs is 256 to a few thousand.
   */
  maxNumSeqs: 1_048_576,
  /** Tokens per KV block (2^20): vLLM's block sizes are 16 to a few hundred tokens. */
  maxBlockSizeTokens: 1_048_576,
  /** Tokens of one request, prompt or output (2^24): ten times the longest context window sold today. */
  maxTokensPerRequest: MAX_TOKENS_PER_REQUEST,
  /** Requests of one run (10^8): a run this long keeps about 40 GB of per-request results. */
  maxRequests: 100_000_000,
  /** Clients of a workload spec: each is a generator of its own; real mixes have tens. */
  maxSpecClients: MAX_SPEC_CLIENTS,
  /**
   * Bytes of a workload spec file (8 MiB, the YAML reader's own limit), checked by the CLI before
   * it reads one: parsing YAML takes about a second and 80 bytes of memory per byte, and a spec
   * of 10,000 clients of ordinary size is 2 to 5 MB.
   */
  maxSpecFileBytes: YAML_LIMITS.maxBytes,
  /**
   * Autoscaler evaluations of one run (10^6): each reads every replica and runs the policy, about
   * a microsecond on one instance and more on a larger fleet; BLIS's default interval (30 s)
   * reaches it after 347 days of simulated time, a 1 s interval after 11 days. An `interval_us: 1`
   * planned 2 × 10^7 for a 20-request run.
   */
  maxAutoscalerEvaluations: 1_000_000,
  /** Samples a time series keeps per signal (`timeseriesMaxSamples`). */
  maxTimeseriesSamples: 1_000_000,
} as const;

export type RunLimits = typeof RUN_LIMITS;
