import type { OffloadChainConfig } from '@blis/kvcache';
import * as z from 'zod';
import { lazySchema } from '@blis/policies/internal';

// The TraceV2 header blocks about tiered KV, with BLIS's keys (sim/workload/tracev2.go). Unknown
// keys are errors, as under BLIS's strict decoder; a missing key takes Go's zero value, as there.

/** One resolved secondary tier in a trace header: the figures, not just the class, so a replay needs no class table. */
export const TraceKVOffloadTierSchema = lazySchema(() =>
  z
    .object({
      type: z.string().default(''),
      root_dir: z.string().default(''),
      n_read_threads: z.number().int().default(0),
      n_write_threads: z.number().int().default(0),
      locality: z.string().default(''),
      enable_kv_events: z.boolean().default(false),
      direct_io: z.boolean().default(false),
      /** Informational: the class the figures came from. */
      device_class: z.string().optional(),
      /** Bytes per µs. */
      read_bandwidth: z.number().default(0),
      /** Bytes per µs. */
      write_bandwidth: z.number().default(0),
      /** µs. */
      base_latency: z.number().default(0),
      saturation_queue_depth: z.number().int().default(0),
      single_transfer_fraction: z.number().default(0),
      latency_jitter_stddev: z.number().default(0),
    })
    .strict(),
);

/** The resolved offload chain a trace was simulated with (`kv_offload:`), present only when one was on. */
export const TraceKVOffloadSchema = lazySchema(() =>
  z
    .object({
      cpu_bytes_to_use: z.number().int().default(0),
      /** Derived from the model; authoritative on replay. */
      per_block_bytes: z.number().int().default(0),
      block_size: z.number().int().default(0),
      blocks_per_chunk: z.number().int().default(0),
      tokens_per_hash: z.number().int().default(0),
      eviction_policy: z.string().default(''),
      offload_prompt_only: z.boolean().default(false),
      self_describing_kv_events: z.boolean().default(false),
      secondary_tiers: z.array(TraceKVOffloadTierSchema).default([]),
    })
    .strict(),
);

/** A real server's KV hit rate scraped by `blis observe` (`observed_kv_metrics:`). */
export const TraceObservedKVMetricsSchema = lazySchema(() =>
  z
    .object({
      /** `tiered` (vLLM's offload-tiering counters) or `gpu-prefix-cache-fallback`. */
      source: z.string().default(''),
      hit_rate: z.number().default(0),
      block_hits: z.number().int().default(0),
      block_queries: z.number().int().default(0),
      read_time_total: z.number().optional(),
      write_time_total: z.number().optional(),
      vllm_commit: z.string().optional(),
    })
    .strict(),
);

export type TraceKVOffloadBlock = z.output<typeof TraceKVOffloadSchema>;
export type TraceKVOffloadTier = z.output<typeof TraceKVOffloadTierSchema>;
export type TraceObservedKVMetrics = z.output<typeof TraceObservedKVMetricsSchema>;

/**
 * The `kv_offload:` header block of a resolved offload chain, keys in BLIS's order. Empty
 * `locality`, `device_class` and `secondary_tiers` are left out, as BLIS's omitempty does.
 */
export function kvOffloadHeaderBlock(c: OffloadChainConfig): TraceKVOffloadBlock {
  const block: TraceKVOffloadBlock = {
    cpu_bytes_to_use: c.cpuBytesToUse,
    per_block_bytes: c.perBlockBytes,
    block_size: c.blockSize,
    blocks_per_chunk: c.blocksPerChunk,
    tokens_per_hash: c.tokensPerHash,
    eviction_policy: c.evictionPolicy,
    offload_prompt_only: c.offloadPromptOnly,
    self_describing_kv_events: c.selfDescribingKvEvents,
    secondary_tiers: c.secondaryTiers.map((t) => {
      const tier: Record<string, unknown> = { type: t.type, root_dir: t.rootDir, n_read_threads: t.nReadThreads, n_write_threads: t.nWriteThreads };
      if (t.locality !== '') tier.locality = t.locality;
      tier.enable_kv_events = t.enableKvEvents;
      tier.direct_io = t.directIo;
      if (t.deviceClass !== undefined && t.deviceClass !== '') tier.device_class = t.deviceClass;
      Object.assign(tier, {
        read_bandwidth: t.device.readBandwidth,
        write_bandwidth: t.device.writeBandwidth,
        base_latency: t.device.baseLatencyUs,
        saturation_queue_depth: t.device.saturationQueueDepth,
        single_transfer_fraction: t.device.singleTransferFraction,
        latency_jitter_stddev: t.device.latencyJitterStddev,
      });
      return tier as TraceKVOffloadTier;
    }),
  };
  if (block.secondary_tiers.length === 0) delete (block as Partial<TraceKVOffloadBlock>).secondary_tiers;
  return block;
}
