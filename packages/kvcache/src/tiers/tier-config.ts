/**
 * Resolved configurations of the two KV tier models BLIS has (reference §1.1). Both are plain
 * data: the CLI builds them from flags or a `kv_offload:` YAML block, `simulate()` from its
 * config, and the engine hands them to {@link createKVStore}.
 */

/** BLIS's legacy GPU+CPU model (`--kv-cpu-blocks N`): a write-through CPU mirror with synchronous reloads. */
export interface CpuTierConfig {
  kind: 'cpu';
  /** CPU tier capacity in blocks (> 0). */
  cpuBlocks: number;
  /**
   * BLIS's `--kv-transfer-bandwidth`: each reloaded block costs `ceil(blockSize / bandwidth)`
   * µs, so the unit is tokens per µs (BLIS's help says blocks per tick; the code divides tokens).
   */
  transferBandwidth: number;
  /** Fixed µs added per reloaded block (BLIS's help says per transfer; the code charges per block). */
  transferBaseLatencyUs: number;
  /**
   * Charge prefill compute for blocks reloaded from the CPU in the step that reloads them, as
   * BLIS does (it sizes the chunk before the reload). Off by default: vLLM's connector loads
   * the blocks before the scheduler counts what it must compute.
   */
  recomputeReloaded?: boolean;
}

/** Transfer figures of one storage device, in bytes per µs and µs. */
export interface DeviceFigures {
  readBandwidth: number;
  writeBandwidth: number;
  baseLatencyUs: number;
  /** Queue depth at which a direction reaches full bandwidth (Qsat); below 2 disables the ramp. */
  saturationQueueDepth: number;
  /** Share of full bandwidth a lone transfer gets (f1); outside (0, 1) disables the ramp. */
  singleTransferFraction: number;
  /** Standard deviation of the multiplicative service-time jitter; 0 draws no randomness. */
  latencyJitterStddev: number;
}

/** One secondary (`fs`) tier of the offload chain, consulted in list order. */
export interface SecondaryTierConfig {
  type: 'fs';
  rootDir: string;
  nReadThreads: number;
  nWriteThreads: number;
  locality: '' | 'LOCAL' | 'REMOTE';
  enableKvEvents: boolean;
  directIo: boolean;
  /** The device class the figures came from, when one was named. */
  deviceClass?: string;
  /** Resolved figures: the class's (buffered ones when `directIo` is false), overridden by explicit keys. */
  device: DeviceFigures;
}

/** BLIS's N-tier offload chain (`--kv-offload-config`): CPU staging tier plus secondary tiers behind a transfer station. */
export interface OffloadChainConfig {
  kind: 'offload';
  /** CPU staging bytes per TP rank, as configured. */
  cpuBytesToUse: number;
  /** KV bytes of one GPU block per TP rank: `trunc(kvBytesPerToken × blockSize)`. */
  perBlockBytes: number;
  /** CPU staging capacity in blocks: `floor(cpuBytesToUse / perBlockBytes)` (>= 1). */
  cpuBlocks: number;
  /** Offload block size in tokens (a multiple of the GPU block size). */
  blockSize: number;
  blocksPerChunk: number;
  tokensPerHash: number;
  evictionPolicy: 'lru';
  offloadPromptOnly: boolean;
  selfDescribingKvEvents: boolean;
  storeThreshold?: number;
  secondaryTiers: SecondaryTierConfig[];
  /** As {@link CpuTierConfig.recomputeReloaded}. */
  recomputeReloaded?: boolean;
}

export type KVTierConfig = CpuTierConfig | OffloadChainConfig;
