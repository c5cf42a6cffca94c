import { describe, expect, it } from 'vitest';
import { KVCache, KVCacheError, ROOT_HASH, contentKey, fillBlockHashes, hashString } from '../src/index.js';
import { retainedBytes } from './retained-bytes.js';

// A retired cache (a terminated replica's) gives its block-sized memory back and keeps what
// results read; anything that would need a block throws instead of acting on the empty remains.

function promptHashes(name: string, blocks: number): Float64Array {
  const h = new Float64Array(blocks);
  fillBlockHashes(h, 0, blocks, ROOT_HASH, (i) => contentKey(hashString(name), i));
  return h;
}

/** A cache that has served a few requests, with prefix hits, and holds nothing now. */
function usedThenEmptied(totalBlocks: number): KVCache {
  const kv = new KVCache({ totalBlocks, blockSizeTokens: 16 });
  const a = promptHashes('a', 8);
  expect(kv.allocate(0, 128, a, 0, true)).toBe(true);
  expect(kv.allocate(1, 128, a, kv.cachedPrefixBlocks(a), true)).toBe(true);
  expect(kv.allocate(2, 16 * totalBlocks, [], 0, true)).toBe(false);
  kv.release(0);
  kv.release(1);
  return kv;
}

describe('KVCache.retire()', () => {
  it('keeps what results read: total, used (0), utilization, hit rate, stats', () => {
    const kv = usedThenEmptied(1000);
    const before = { total: kv.totalBlocks, free: kv.freeBlocks, utilization: kv.utilization, hitRate: kv.cacheHitRate, stats: kv.stats(), size: kv.blockSizeTokens };
    expect(before.stats).toEqual({ cacheHits: 8, cacheMisses: 16, allocationFailures: 1 });
    kv.retire();
    expect(kv.retired).toBe(true);
    expect(kv.usedBlocks).toBe(0);
    expect({ total: kv.totalBlocks, free: kv.freeBlocks, utilization: kv.utilization, hitRate: kv.cacheHitRate, stats: kv.stats(), size: kv.blockSizeTokens }).toEqual(before);
  });

  it('drops the arrays sized by the block count', () => {
    for (const totalBlocks of [1000, 100_000]) {
      const kv = usedThenEmptied(totalBlocks);
      // Every block taken once: block records (16 B), free ring (12 B per entry, 2x blocks).
      expect(kv.allocate(3, 16 * totalBlocks, [], 0, true)).toBe(true);
      kv.release(3);
      expect(retainedBytes(kv)).toBeGreaterThan(40 * totalBlocks);
      kv.retire();
      expect(retainedBytes(kv)).toBeLessThan(2048);
      const snap = kv.snapshot([0, 1]);
      expect(snap).toEqual({ freeOrder: [], index: [], owners: [null, null], tokens: [0, 0], usedBlocks: 0, stats: kv.stats() });
    }
  });

  it('holds memory for the blocks it has taken, not for its size', () => {
    const kv = new KVCache({ totalBlocks: 100_000, blockSizeTokens: 16 });
    // Room for about a thousand blocks and two thousand index slots, not for 100,000 blocks.
    const fresh = retainedBytes(kv);
    expect(fresh).toBeLessThan(100_000);
    expect(kv.allocate(0, 16 * 4000, [], 0, true)).toBe(true);
    // Four thousand blocks taken: records and ring for about that many (with doubling), no more.
    expect(retainedBytes(kv)).toBeLessThan(fresh + 2 * 40 * 4096);
    kv.checkConsistency();
    expect(kv.snapshot().freeOrder.slice(0, 3)).toEqual([4000, 4001, 4002]);
  });

  it('answers queries as an empty cache and passes its consistency check', () => {
    const kv = usedThenEmptied(64);
    const a = promptHashes('a', 8);
    expect(kv.cachedPrefixBlocks(a)).toBe(8);
    kv.retire();
    expect(kv.cachedPrefixBlocks(a)).toBe(0);
    expect(kv.holdsHash(a[0])).toBe(false);
    expect(kv.holds(0)).toBe(false);
    expect(kv.blocksHeldBy(0)).toBe(0);
    expect(kv.keepFree(a, 0)).toBe(0);
    kv.checkConsistency();
    kv.retire(); // a second retire does nothing
    expect(kv.retired).toBe(true);
  });

  it('throws on anything that would need a block', () => {
    const kv = usedThenEmptied(64);
    kv.retire();
    const a = promptHashes('a', 8);
    expect(() => kv.allocate(0, 16, a, 0, true)).toThrow(new KVCacheError('cannot allocate for owner 0: the cache was retired'));
    expect(() => kv.allocate(3, 0, [], 0, false)).toThrow(KVCacheError);
    expect(() => kv.appendToken(0, a)).toThrow(new KVCacheError('cannot allocate for owner 0: the cache was retired'));
    expect(() => kv.placeFreeBlock(a[0])).toThrow(new KVCacheError('cannot place a block on a retired cache'));
    expect(() => kv.release(0)).toThrow(new KVCacheError('owner 0 holds no blocks: the cache was retired'));
    expect(() => kv.openPrefixSignal()).toThrow(new KVCacheError('cannot open a prefix signal on a retired cache'));
    expect(kv.stats()).toEqual({ cacheHits: 8, cacheMisses: 16, allocationFailures: 1 });
  });

  it('refuses a cache that holds KV, changing nothing', () => {
    const kv = new KVCache({ totalBlocks: 16, blockSizeTokens: 16 });
    const a = promptHashes('a', 2);
    expect(kv.allocate(0, 40, a, 0, true)).toBe(true);
    const before = kv.snapshot([0]);
    expect(() => kv.retire()).toThrow(new KVCacheError('cannot retire a cache that holds 3 blocks'));
    expect(kv.retired).toBe(false);
    expect(kv.snapshot([0])).toEqual(before);
    kv.checkConsistency();
    expect(kv.appendToken(0, a)).toBe(true);
    kv.release(0);
    // An owner with a record but no block yet (a zero-token allocation) holds KV too.
    expect(kv.allocate(5, 0, [], 0, false)).toBe(true);
    expect(() => kv.retire()).toThrow(new KVCacheError('cannot retire a cache while owner 5 holds a record'));
    kv.release(5);
    kv.retire();
    expect(kv.retired).toBe(true);
  });

  it('releases its prefix signal: whoever holds it keeps no hash set, and it shows an empty cache', () => {
    const kv = new KVCache({ totalBlocks: 5000, blockSizeTokens: 16 });
    const signal = kv.openPrefixSignal();
    const many = promptHashes('many', 4000);
    expect(kv.allocate(0, 16 * 4000, many, 0, true)).toBe(true);
    kv.release(0);
    signal.refresh();
    expect(signal.cachedPrefixBlocks(many)).toBe(4000);
    expect(retainedBytes(signal)).toBeGreaterThan(8 * 4000);
    kv.retire();
    expect(signal.cachedPrefixBlocks(many)).toBe(0);
    signal.refresh();
    expect(signal.cachedPrefixBlocks(many)).toBe(0);
    expect(retainedBytes(signal)).toBeLessThan(1024);
  });
});
