import type { KVCapacityDerivation, ResolvedLatency } from '@blis/latency';
import type { KVDerivation } from './config-limits.js';

/** The facts a derived KV block count came from, per TP rank (as @blis/latency's deriveKVCapacity computes it). */
export function kvDerivationOf(resolved: ResolvedLatency, d: KVCapacityDerivation): KVDerivation {
  return {
    model: resolved.modelId,
    gpu: resolved.hardware?.name ?? resolved.gpu,
    tp: d.tp,
    gpuMemoryUtilization: d.gpuMemoryUtilization,
    freeBytes: d.allocatableBytes / d.tp,
    kvBytesPerToken: d.bytesPerTokenPerRank,
  };
}
