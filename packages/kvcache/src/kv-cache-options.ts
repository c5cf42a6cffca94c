import { KVCacheError } from './errors.js';
import { MAX_BLOCKS } from './owner-table.js';

export interface KVCacheOptions {
  totalBlocks: number;
  /** Tokens per block; vLLM's and BLIS's default is 16. */
  blockSizeTokens?: number;
}

/** The options' values, defaults filled in; throws a {@link KVCacheError} naming a bad one. */
export function checkedKVCacheOptions(opts: KVCacheOptions): { totalBlocks: number; blockSizeTokens: number } {
  const total = opts.totalBlocks;
  const bs = opts.blockSizeTokens ?? 16;
  if (!Number.isInteger(total) || total <= 0) throw new KVCacheError(`totalBlocks must be a positive integer, found ${total}`);
  // Owner lists mark hashed blocks with a bit above the ids (a cache this large could not be filled anyway).
  if (total > MAX_BLOCKS - 1) throw new KVCacheError(`totalBlocks must be at most ${MAX_BLOCKS - 1}, found ${total}`);
  if (!Number.isInteger(bs) || bs <= 0) throw new KVCacheError(`blockSizeTokens must be a positive integer, found ${bs}`);
  return { totalBlocks: total, blockSizeTokens: bs };
}
