import type { KVTierStats } from './kv-tiers.js';

/**
 * BLIS's `CacheHitRate` with tiers: blocks claimed from the prefix cache (reloaded ones included)
 * over those plus the blocks filled fresh and the failed allocations no tier could help.
 * Applies to one instance's stats or to stats summed over a cluster (a pooled rate).
 */
export function tierCacheHitRate(s: Pick<KVTierStats, 'gpuHits' | 'gpuMisses' | 'tierMisses'>): number {
  const total = s.gpuHits + s.gpuMisses + s.tierMisses;
  return total === 0 ? 0 : s.gpuHits / total;
}

/**
 * BLIS's `KVThrashingRate`: CPU evictions per mirrored block for the CPU model, refused per
 * attempted promotion for the offload chain; 0 before anything happened.
 */
export function tierThrashingRate(s: KVTierStats): number {
  if (s.kind === 'cpu') return s.mirrored === 0 ? 0 : s.cpuEvictions / s.mirrored;
  const attempts = s.promotionsFired + s.promotionsFailed;
  return attempts === 0 ? 0 : s.promotionsFailed / attempts;
}
