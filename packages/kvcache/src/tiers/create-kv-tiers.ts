import type { KVCache } from '../kv-cache.js';
import { KVCacheError } from '../errors.js';
import { CpuTier } from './cpu-tier.js';
import { OffloadChain } from './offload-chain.js';
import type { KVTiers } from './kv-tiers.js';
import type { KVTierConfig } from './tier-config.js';

/** Options a tier model may need besides its configuration. */
export interface KVTierOptions {
  /** Standard normal draws for transfer jitter (offload chain); only called when a device has jitter. */
  normal?: () => number;
}

/** Builds the tier model `config` names, behind `gpu`. */
export function createKVTiers(config: KVTierConfig, gpu: KVCache, options: KVTierOptions = {}): KVTiers {
  switch (config.kind) {
    case 'cpu':
      return new CpuTier(config, gpu);
    case 'offload':
      return new OffloadChain(config, gpu, options);
    default:
      throw new KVCacheError(`KV tier model '${(config as { kind: string }).kind}' is not available`);
  }
}
