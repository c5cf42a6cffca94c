import type { CpuTierConfig, KVTierConfig, OffloadChainConfig } from '@blis/kvcache';
import type { ModelArchitecture } from '@blis/latency';
import { kvBytesPerTokenPerRank } from '@blis/latency/internal';
import type { SimulationConfig } from './config-schema.js';
import type { KVOffloadSettings } from './kv-offload-schema.js';
import { resolveSecondaryTier } from './kv-offload-tiers.js';
import { KVTierConfigError } from './kv-tier-config-error.js';

/** The validated config fields that choose and shape the KV tiers. */
export type KVTierSettings = Pick<SimulationConfig, 'kvCpuBlocks' | 'kvTransferBandwidth' | 'kvTransferBaseLatencyUs' | 'kvReloadRecompute' | 'kvOffload'>;

/**
 * The tier model behind every instance's GPU cache (reference §1.1): the legacy CPU mirror when
 * `kvCpuBlocks > 0`, the offload chain when `kvOffload` is set, none otherwise (GPU only, so a
 * run without either is the run it always was). `modelConfig` and `tp` size the offload
 * blocks; `blockSizeTokens` is the GPU block size. Throws a {@link KVTierConfigError} when the
 * chain cannot be sized.
 */
export function resolveKVTiers(config: KVTierSettings, modelConfig: ModelArchitecture | undefined, tp: number, blockSizeTokens: number): KVTierConfig | undefined {
  if (config.kvOffload !== undefined) {
    const perBlockBytes = config.kvOffload.perBlockBytes ?? offloadPerBlockBytes(modelConfig, tp, blockSizeTokens);
    return resolveOffloadChain(config.kvOffload, perBlockBytes, blockSizeTokens, config.kvReloadRecompute);
  }
  if (config.kvCpuBlocks > 0) {
    const cpu: CpuTierConfig = {
      kind: 'cpu',
      cpuBlocks: config.kvCpuBlocks,
      transferBandwidth: config.kvTransferBandwidth,
      transferBaseLatencyUs: config.kvTransferBaseLatencyUs,
      recomputeReloaded: config.kvReloadRecompute,
    };
    return cpu;
  }
  return undefined;
}

/**
 * KV bytes of one GPU block on one TP rank: `trunc(kvBytesPerTokenPerRank × blockSizeTokens)`,
 * BLIS's `per_block_bytes`. Needs the model's config.json: the KV size is a model fact.
 */
export function offloadPerBlockBytes(modelConfig: ModelArchitecture | undefined, tp: number, blockSizeTokens: number): number {
  if (modelConfig === undefined)
    throw new KVTierConfigError(
      ['kvOffload'],
      "a model config (Hugging Face config.json) to size offload blocks from the model's KV bytes per token",
      'none (the catalogue has no config.json for the model, and none was given)',
    );
  let perToken: number;
  try {
    perToken = kvBytesPerTokenPerRank(modelConfig.kvShape, tp);
  } catch (e) {
    throw new KVTierConfigError(['kvOffload'], 'a model whose KV bytes per token are defined', (e as Error).message);
  }
  const bytes = Math.trunc(perToken * blockSizeTokens);
  if (bytes <= 0) throw new KVTierConfigError(['kvOffload', 'perBlockBytes'], 'a positive per-block size', `${perToken} bytes per token × ${blockSizeTokens} tokens`);
  return bytes;
}

/** The offload chain from validated `kvOffload` settings and the per-block size. */
export function resolveOffloadChain(o: KVOffloadSettings, perBlockBytes: number, blockSizeTokens: number, recomputeReloaded: boolean): OffloadChainConfig {
  const cpuBlocks = Math.floor(o.cpuBytesToUse / perBlockBytes);
  if (cpuBlocks < 1)
    throw new KVTierConfigError(['kvOffload', 'cpuBytesToUse'], `at least one block's worth of bytes (${perBlockBytes} per block on one TP rank)`, String(o.cpuBytesToUse));
  const chain: OffloadChainConfig = {
    kind: 'offload',
    cpuBytesToUse: o.cpuBytesToUse,
    perBlockBytes,
    cpuBlocks,
    // The schema refuses any other size: a larger one means several GPU blocks per chunk.
    blockSize: o.blockSize ?? blockSizeTokens,
    blocksPerChunk: 1,
    tokensPerHash: o.tokensPerHash ?? blockSizeTokens,
    evictionPolicy: 'lru',
    offloadPromptOnly: o.offloadPromptOnly,
    selfDescribingKvEvents: o.selfDescribingKvEvents,
    secondaryTiers: o.secondaryTiers.map(resolveSecondaryTier),
    recomputeReloaded,
  };
  if (o.storeThreshold !== undefined) chain.storeThreshold = o.storeThreshold;
  return chain;
}
