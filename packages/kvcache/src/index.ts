export { ROOT_HASH, chainHash, hashString, contentKey, fillBlockHashes } from './block-hash.js';
export { KVCache } from './kv-cache.js';
export type { KVCacheOptions, KVCacheSnapshot, KVCacheStats } from './kv-cache.js';
export { KVCacheError } from './errors.js';
export type { PrefixSignal } from './prefix-signal.js';
