import { DEVICE_CLASSES } from '@blis/kvcache';
import type { TraceKVOffloadBlock } from '@blis/workload';
import { TraceKVOffloadSchema, kvOffloadHeaderBlock } from '@blis/workload/internal';
import type { KVOffloadInput, KVOffloadSettings } from './kv-offload-schema.js';
import { resolveOffloadChain } from './kv-tiers-config.js';

// BLIS INV-13 for replays: the trace header's `kv_offload` block is the offload chain the trace
// was simulated with, so it wins; a differing config is refused rather than silently used.

/**
 * The `kvOffload` config that reproduces a header block: every figure explicit and the
 * per-block size pinned (it is a model fact of the recording run, not of this one). A device
 * class this build does not ship is dropped; the recorded figures stand in for it.
 */
export function kvOffloadFromHeader(block: TraceKVOffloadBlock): KVOffloadInput {
  const h = TraceKVOffloadSchema.parse(block);
  const input: KVOffloadInput = {
    cpuBytesToUse: h.cpu_bytes_to_use,
    tokensPerHash: h.tokens_per_hash,
    evictionPolicy: h.eviction_policy,
    offloadPromptOnly: h.offload_prompt_only,
    selfDescribingKvEvents: h.self_describing_kv_events,
    secondaryTiers: h.secondary_tiers.map((t) => ({
      type: t.type,
      rootDir: t.root_dir,
      nReadThreads: t.n_read_threads,
      nWriteThreads: t.n_write_threads,
      locality: t.locality as '' | 'LOCAL' | 'REMOTE',
      enableKvEvents: t.enable_kv_events,
      directIo: t.direct_io,
      deviceClass: t.device_class !== undefined && Object.hasOwn(DEVICE_CLASSES, t.device_class) ? t.device_class : undefined,
      readBandwidth: t.read_bandwidth,
      writeBandwidth: t.write_bandwidth,
      baseLatency: t.base_latency,
      saturationQueueDepth: t.saturation_queue_depth,
      singleTransferFraction: t.single_transfer_fraction,
      latencyJitterStddev: t.latency_jitter_stddev,
    })),
  };
  // A recorded chunk of several blocks is refused by blocksPerChunk's own rule; else the size stands.
  if (h.blocks_per_chunk !== 1) input.blocksPerChunk = h.blocks_per_chunk;
  else input.blockSize = h.block_size;
  // BLIS derives a missing (0) per-block size on replay; a recorded one is authoritative.
  if (h.per_block_bytes > 0) input.perBlockBytes = h.per_block_bytes;
  return input;
}

/** One setting on which a given offload config and a trace header disagree. */
export interface KVOffloadDifference {
  /** Header key path, e.g. `['secondary_tiers', 0, 'read_bandwidth']`. */
  key: (string | number)[];
  header: unknown;
  given: unknown;
}

/**
 * Where `given` (validated settings) resolves differently from the header block, with the GPU
 * block size `blockSizeTokens`. `per_block_bytes` is left out: it is derived, and BLIS excludes
 * it too.
 */
export function kvOffloadDifferences(header: TraceKVOffloadBlock, given: KVOffloadSettings, blockSizeTokens: number): KVOffloadDifference[] {
  // Any positive per-block size gives the same header block apart from per_block_bytes itself.
  const mine = TraceKVOffloadSchema.parse(kvOffloadHeaderBlock(resolveOffloadChain(given, 1, blockSizeTokens, false)));
  const theirs = TraceKVOffloadSchema.parse(header);
  const out: KVOffloadDifference[] = [];
  const compare = (a: Record<string, unknown>, b: Record<string, unknown>, prefix: (string | number)[]) => {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (key === 'per_block_bytes' || key === 'secondary_tiers') continue;
      if (a[key] !== b[key]) out.push({ key: [...prefix, key], header: a[key], given: b[key] });
    }
  };
  compare(theirs, mine, []);
  if (theirs.secondary_tiers.length !== mine.secondary_tiers.length)
    out.push({ key: ['secondary_tiers'], header: `${theirs.secondary_tiers.length} tier(s)`, given: `${mine.secondary_tiers.length} tier(s)` });
  else for (const [i, t] of theirs.secondary_tiers.entries()) compare(t, mine.secondary_tiers[i], ['secondary_tiers', i]);
  return out;
}

export interface ReplayKVOffloadInput {
  /** The trace header's `kv_offload` block, when it has one. */
  header?: TraceKVOffloadBlock;
  /** The header's `mode`: `real` (observed), `generated` or `replayed` (simulated). */
  mode: string;
  /** The header's `observed_kv_metrics.source`, when it has one. */
  observedSource?: string;
  /** The offload settings the caller asks for, validated. */
  given?: KVOffloadSettings;
  blockSizeTokens: number;
}

export type ReplayKVOffloadOutcome =
  | { ok: true; kvOffload?: KVOffloadInput; from: 'header' | 'given' | 'none' }
  | { ok: false; reason: 'conflict'; differences: KVOffloadDifference[] }
  | { ok: false; reason: 'added-to-simulated' }
  | { ok: false; reason: 'tiered-needs-offload' };

/**
 * BLIS's replay rules for the offload chain (reference §1.7, INV-13): the header's block wins
 * and a given config must resolve to it (`per_block_bytes` aside); a config may be added only to
 * an observed (`mode: real`) trace, to model the observed deployment; and a trace whose observed
 * hit rate came from vLLM's tiered counters replays only with an offload chain, or the
 * comparison would set a GPU-only rate against a tiered one.
 */
export function reconcileReplayKVOffload(r: ReplayKVOffloadInput): ReplayKVOffloadOutcome {
  let outcome: ReplayKVOffloadOutcome;
  if (r.header !== undefined) {
    const differences = r.given !== undefined ? kvOffloadDifferences(r.header, r.given, r.blockSizeTokens) : [];
    if (differences.length > 0) return { ok: false, reason: 'conflict', differences };
    outcome = { ok: true, kvOffload: kvOffloadFromHeader(r.header), from: 'header' };
  } else if (r.given !== undefined) {
    if (r.mode !== 'real') return { ok: false, reason: 'added-to-simulated' };
    outcome = { ok: true, kvOffload: r.given, from: 'given' };
  } else outcome = { ok: true, from: 'none' };
  if (r.observedSource === 'tiered' && outcome.kvOffload === undefined) return { ok: false, reason: 'tiered-needs-offload' };
  return outcome;
}
