export { ROOT_HASH, chainHash, hashString, contentKey, fillBlockHashes } from './block-hash.js';
export { KVCache } from './kv-cache.js';
export type { KVCacheOptions, KVCacheSnapshot, KVCacheStats } from './kv-cache.js';
export { KVCacheError } from './errors.js';
export type { PrefixSignal } from './prefix-signal.js';
export type { CpuTierConfig, DeviceFigures, KVTierConfig, OffloadChainConfig, SecondaryTierConfig } from './tiers/tier-config.js';
export { DEVICE_CLASSES } from './tiers/device-classes.js';
export { DEFERRED } from './tiers/kv-tiers.js';
export type { KVTiers, KVTierStats } from './tiers/kv-tiers.js';
