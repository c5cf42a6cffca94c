import type { InstanceSimulator } from '@blis/engine';
import { type KVTierStats, tierThrashingRate } from '@blis/kvcache';

/** Per-tier counters of one instance, or summed over the cluster (only when tiers are on). */
export interface KvTierCounters {
  /** `cpu` (BLIS `--kv-cpu-blocks`) or `offload` (BLIS `--kv-offload-config`). */
  model: 'cpu' | 'offload';
  cpu_capacity_blocks: number;
  /** New blocks the mirror stored on the CPU tier. */
  mirrored_blocks: number;
  /** Blocks reloaded from the CPU tier onto the GPU. */
  reloaded_blocks: number;
  /** Blocks the CPU tier evicted to make room. */
  cpu_evictions: number;
  /** Failed GPU allocations the CPU tier could not help (in the hit rate's denominator). */
  tier_misses: number;
  /** Mirror stores refused because every CPU block was locked (offload chain). */
  mirror_skipped: number;
  promotions_fired: number;
  promotions_failed: number;
  /** Admissions deferred while a fetch from a secondary tier was pending. */
  deferrals: number;
  /** Blocks written to each secondary tier, in configuration order. */
  secondary_writes: number[];
  /** Reload latency charged to steps, µs (CPU model). */
  transfer_latency_us: number;
}

/** The fields a tiered run adds to a metrics block. */
export interface KvTierFields {
  /** BLIS's KV thrashing rate: CPU evictions per mirrored block (CPU model), refused per attempted promotion (offload chain). */
  kv_thrashing_rate: number;
  kv_tiers: KvTierCounters;
}

function counters(s: KVTierStats): KvTierCounters {
  return {
    model: s.kind,
    cpu_capacity_blocks: s.cpuCapacityBlocks,
    mirrored_blocks: s.mirrored,
    reloaded_blocks: s.reloaded,
    cpu_evictions: s.cpuEvictions,
    tier_misses: s.tierMisses,
    mirror_skipped: s.mirrorSkipped,
    promotions_fired: s.promotionsFired,
    promotions_failed: s.promotionsFailed,
    deferrals: s.deferrals,
    secondary_writes: s.secondaryWrites.slice(),
    transfer_latency_us: s.transferLatencyUs,
  };
}

/** The instance's tier fields, or undefined when it has no tiers. */
export function instanceTierFields(inst: InstanceSimulator): KvTierFields | undefined {
  const t = inst.kvTiers;
  if (t === undefined) return undefined;
  const s = t.stats();
  return { kv_thrashing_rate: tierThrashingRate(s), kv_tiers: counters(s) };
}

/** Every tiered instance's stats summed (every instance has the same tier model), or undefined. */
export function pooledTierStats(instances: readonly InstanceSimulator[]): KVTierStats | undefined {
  let sum: KVTierStats | undefined;
  for (const inst of instances) {
    const t = inst.kvTiers;
    if (t === undefined) continue;
    const s = t.stats();
    if (sum === undefined) {
      sum = { ...s, secondaryWrites: s.secondaryWrites.slice() };
      continue;
    }
    sum.cpuCapacityBlocks += s.cpuCapacityBlocks;
    sum.gpuHits += s.gpuHits;
    sum.gpuMisses += s.gpuMisses;
    sum.tierMisses += s.tierMisses;
    sum.mirrored += s.mirrored;
    sum.reloaded += s.reloaded;
    sum.cpuEvictions += s.cpuEvictions;
    sum.mirrorSkipped += s.mirrorSkipped;
    sum.promotionsFired += s.promotionsFired;
    sum.promotionsFailed += s.promotionsFailed;
    sum.deferrals += s.deferrals;
    sum.transferLatencyUs += s.transferLatencyUs;
    s.secondaryWrites.forEach((w, i) => {
      sum!.secondaryWrites[i] = (sum!.secondaryWrites[i] ?? 0) + w;
    });
  }
  return sum;
}

/**
 * The cluster's tier fields from the pooled stats: counters summed over instances and the
 * thrashing rate pooled over them (BLIS prints the unweighted mean of the instances' rates instead).
 */
export function clusterTierFields(pooled: KVTierStats): KvTierFields {
  return { kv_thrashing_rate: tierThrashingRate(pooled), kv_tiers: counters(pooled) };
}

/** BLIS's cluster figures: the unweighted means over instances of their hit and thrashing rates. */
export function blisMeanRates(instances: readonly InstanceSimulator[]): { cache_hit_rate: number; kv_thrashing_rate: number } {
  let hit = 0;
  let thrash = 0;
  for (const inst of instances) {
    hit += inst.kvTiers?.cacheHitRate() ?? inst.kv.cacheHitRate;
    thrash += inst.kvTiers?.thrashingRate() ?? 0;
  }
  const n = Math.max(1, instances.length);
  return { cache_hit_rate: hit / n, kv_thrashing_rate: thrash / n };
}
