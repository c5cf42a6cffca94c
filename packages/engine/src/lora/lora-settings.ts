/** One adapter of the registry: its id (what a request names) and its LoRA rank. */
export interface AdapterDecl {
  readonly id: string;
  readonly rank: number;
}

/** The per-step compute overhead of batches whose largest adapter rank is this tier's. */
export interface StepOverheadTier {
  readonly rank: number;
  /** Overhead per distinct adapter in the batch (BLIS's K6, ≥ 0). */
  readonly k6: number;
  /** Normaliser of k6 (BLIS's K7, > 0). */
  readonly k7: number;
}

/**
 * LoRA serving on an instance, resolved and validated (the cluster's config schema does that):
 * the adapter registry, the resident slots per instance and the cost coefficients. Absent from
 * an instance's config, nothing of this folder runs.
 */
export interface LoraSettings {
  readonly adapters: readonly AdapterDecl[];
  /** Resident adapter slots per instance (vLLM's `--max-loras`). */
  readonly capacity: number;
  /** Fixed part of a cold load, µs. */
  readonly loadBaseLatencyUs: number;
  /** Host-to-GPU copy rate of adapter weights, bytes per µs. */
  readonly loadBandwidthBytesUs: number;
  /** Adapter weights per unit of rank, bytes. */
  readonly footprintBytesPerRank: number;
  readonly stepOverheadTiers: readonly StepOverheadTier[];
}
