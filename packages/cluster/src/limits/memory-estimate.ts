import type { SimulationConfig } from '../config-schema.js';

/**
 * Bytes per item behind the estimate. The KV arrays are computed exactly from their layout
 * (@blis/kvcache's BlockStore and HashIndex); the rest was measured as resident memory over
 * runs of different sizes (docs/limits.md): 2,000 instances of 100 blocks cost 66 KB each
 * beyond 10; 200,000 requests cost 380 bytes each beyond 20,000, and 1.75 KB with per-request
 * records (`--results-path`); the smallest run's process holds 130 MB.
 */
export const MEMORY_COSTS = {
  /** The Node process, modules and catalogue, before any instance. */
  baselineBytes: 128 * 2 ** 20,
  /** An instance's simulator, scheduler, queues and metrics, its KV arrays aside. */
  perInstanceBytes: 64 * 2 ** 10,
  /** What a finished request leaves in the result's columns. */
  perRequestBytes: 400,
  /** The same with per-request records kept (`includeRequests`). */
  perRequestWithRecordBytes: 2048,
  /** A batch slot of an instance (its running batch and step batch arrays), allocated up front. */
  perBatchSlotBytes: 60,
  /** Batch slots the measured per-instance figure already holds (the default max_num_seqs). */
  batchSlotsMeasured: 256,
  /** Signals a time series samples per instance (queue, running, KV use, hits, lookups, completions). */
  timeseriesSignalsPerInstance: 6,
  /** The process's share of V8's heap (modules, catalogue): 20 MiB measured. */
  baselineHeapBytes: 32 * 2 ** 20,
  /**
   * A sample of the result's time series on V8's heap (per column sample of the estimate): the
   * result holds each as an element of a JS array, a pointer and a boxed double (24 bytes where
   * the column holds 8).
   */
  timeseriesHeapFactor: 3,
} as const;

/** A group of instances with the same KV capacity (P/D pools differ). */
export interface InstanceGroup {
  count: number;
  kvBlocks: number;
  /** Why the group is there when it is not a startup instance: `autoscaled`. */
  note?: string;
}

/** The CPU tier behind every instance's GPU cache: the legacy mirror (`cpu`) or the offload chain's staging tier. */
export interface CpuTierSize {
  kind: 'cpu' | 'offload';
  blocks: number;
}

export interface MemoryEstimateInput {
  instances: readonly InstanceGroup[];
  /** Requests the run will inject; undefined when nothing says (a caller's own request source). */
  requests: number | undefined;
  /** Where `requests` came from when it is an estimate (`estimated from t.csv, 12.0 MiB`). */
  requestsFrom?: string;
  /** Batch slots per instance (`maxNumSeqs`); undefined = the default, within the per-instance figure. */
  batchSlots?: number;
  /** The CPU tier each instance has; undefined = GPU only. */
  cpuTier?: CpuTierSize;
  includeRequests: boolean;
  /** Samples per signal the time series may hold; undefined = no time series. */
  timeseriesSamples: number | undefined;
}

export interface MemoryEstimate {
  totalBytes: number;
  kvCacheBytes: number;
  instanceBytes: number;
  requestBytes: number;
  timeseriesBytes: number;
  cpuTierBytes: number;
  baselineBytes: number;
  /** One line on what the figure is made of, for a refusal message. */
  summary: string;
  /**
   * The part that lives on V8's heap, which Node bounds apart from the machine (about 4 GiB by
   * default): everything but the typed arrays behind the KV cache, the CPU tier and the time
   * series columns, plus the result's own copy of the time series.
   */
  heapBytes: number;
  /** One line on what the heap figure is made of. */
  heapSummary: string;
}

/**
 * Bytes one instance's KV cache holds for `blocks` blocks at most, once every block has been
 * taken and carries a registered hash (it grows to that as a run reaches its blocks).
 */
export function kvCacheBytes(blocks: number): number {
  // BlockStore: 16-byte records, plus a free ring (int32 id + float64 hash) of the power of two
  // ≥ 2 × blocks; HashIndex: an int32 pair per slot, at most the power of two ≥ 2 × blocks.
  return 16 * blocks + 12 * powerOfTwoAtLeast(2 * blocks) + 8 * powerOfTwoAtLeast(2 * blocks);
}

/**
 * Bytes one instance's CPU tier allocates up front for `blocks` blocks: per block, the legacy
 * mirror's LRU keeps a hash, a time and four int32 links (32 bytes), the offload chain's staging
 * tier a key and four int32s (28 bytes); both index keys in a KeyIndex of 16 bytes per slot over
 * the power of two ≥ 2 × blocks (@blis/kvcache's CpuLru and CpuStagingTier).
 */
export function cpuTierBytes(tier: CpuTierSize): number {
  return (tier.kind === 'cpu' ? 32 : 28) * tier.blocks + 16 * powerOfTwoAtLeast(2 * tier.blocks);
}

function powerOfTwoAtLeast(n: number): number {
  let size = 16;
  while (size < n) size *= 2;
  return size;
}

/** The memory a run will need, from its size. Deterministic: the same input, the same bytes. */
export function estimateMemory(input: MemoryEstimateInput): MemoryEstimate {
  const c = MEMORY_COSTS;
  let instances = 0;
  let kv = 0;
  for (const g of input.instances) {
    instances += g.count;
    kv += g.count * kvCacheBytes(g.kvBlocks);
  }
  const extraSlots = Math.max(0, (input.batchSlots ?? 0) - c.batchSlotsMeasured);
  const instanceBytes = instances * (c.perInstanceBytes + extraSlots * c.perBatchSlotBytes);
  const cpuBytes = input.cpuTier === undefined ? 0 : instances * cpuTierBytes(input.cpuTier);
  const requestBytes = (input.requests ?? 0) * (input.includeRequests ? c.perRequestWithRecordBytes : c.perRequestBytes);
  // A column grows by doubling up to its cap: a power of two of float64s per signal and instance.
  const timeseriesBytes = input.timeseriesSamples === undefined ? 0 : instances * c.timeseriesSignalsPerInstance * 8 * powerOfTwoAtLeast(input.timeseriesSamples);
  // The result copies the columns into JS arrays (see timeseriesHeapFactor): both exist at its end.
  const timeseriesHeap = c.timeseriesHeapFactor * timeseriesBytes;
  const totalBytes = c.baselineBytes + kv + cpuBytes + instanceBytes + requestBytes + timeseriesBytes + timeseriesHeap;
  const parts = [`KV cache ${formatBytes(kv)} (${input.instances.map((g) => `${g.count} × ${g.kvBlocks} blocks${g.note === undefined ? '' : ` ${g.note}`}`).join(' + ')})`];
  if (input.cpuTier !== undefined) parts.push(`CPU tier ${formatBytes(cpuBytes)} (${instances} × ${input.cpuTier.blocks} blocks)`);
  parts.push(`instances ${formatBytes(instanceBytes)}${extraSlots > 0 ? ` (${input.batchSlots} batch slots each)` : ''}`);
  if (input.requests === undefined) parts.push('requests not counted (the request source does not say how many)');
  else parts.push(`${input.requests} requests${input.requestsFrom === undefined ? '' : ` (${input.requestsFrom})`} ${formatBytes(requestBytes)}`);
  if (timeseriesBytes > 0) parts.push(`time series ${formatBytes(timeseriesBytes + timeseriesHeap)}`);
  parts.push(`process ${formatBytes(c.baselineBytes)}`);
  // Counted on the heap whole: the per-instance and per-request figures were measured as
  // resident memory, and a request waiting in a queue (every request of an overloaded run) is a
  // JS object; with its record kept, 300,000 overloaded requests needed a heap of 300 to 450 MiB.
  const heapBytes = c.baselineHeapBytes + instanceBytes + requestBytes + timeseriesHeap;
  const heapParts = [`instances ${formatBytes(instanceBytes)}`];
  if (input.requests !== undefined) heapParts.push(`${input.requests} requests${input.includeRequests ? ' with their records' : ''} ${formatBytes(requestBytes)}`);
  if (timeseriesHeap > 0) heapParts.push(`time series ${formatBytes(timeseriesHeap)}`);
  heapParts.push(`process ${formatBytes(c.baselineHeapBytes)}`);
  return {
    totalBytes,
    kvCacheBytes: kv,
    instanceBytes,
    requestBytes,
    timeseriesBytes,
    cpuTierBytes: cpuBytes,
    baselineBytes: c.baselineBytes,
    summary: parts.join(', '),
    heapBytes,
    heapSummary: heapParts.join(', '),
  };
}

/** The samples a time series of `config` may hold per signal: its cap, or fewer when the horizon says so. */
export function timeseriesSamplesOf(config: SimulationConfig): number | undefined {
  if (config.timeseriesIntervalUs === undefined) return undefined;
  const byHorizon = config.horizonUs === undefined ? Number.POSITIVE_INFINITY : Math.ceil(config.horizonUs / config.timeseriesIntervalUs) + 1;
  return Math.min(config.timeseriesMaxSamples, byHorizon);
}

/** Requests a config's workload will inject, when the config says (a spec file may say later). */
export function requestsOf(config: SimulationConfig): number | undefined {
  const w = config.workload;
  if (w.kind === 'synthetic') return w.numRequests;
  if (w.kind === 'trace') return w.maxRequests;
  return w.numRequests;
}

/** Bytes in binary units with one decimal: "1.5 GiB". */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${v.toFixed(1)} ${units[u]}`;
}
