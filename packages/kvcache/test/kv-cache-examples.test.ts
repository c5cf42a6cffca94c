import { describe, expect, it } from 'vitest';
import { KVCache, KVCacheError, ROOT_HASH, chainHash, contentKey, fillBlockHashes, hashString } from '../src/index.js';

/** Hierarchical hashes of blocks whose contents are `keys`, chained from the root. */
function chain(keys: readonly number[]): number[] {
  const out = new Array<number>(keys.length);
  fillBlockHashes(out, 0, keys.length, ROOT_HASH, (i) => keys[i]);
  return out;
}

describe('hierarchical block hashes', () => {
  it('chains each block onto its predecessor', () => {
    const h = chain([11, 22, 33]);
    expect(h[0]).toBe(chainHash(ROOT_HASH, 11));
    expect(h[1]).toBe(chainHash(h[0], 22));
    expect(h[2]).toBe(chainHash(h[1], 33));
  });

  it('gives the same block content a different hash at a different position or after a different prefix', () => {
    const a = chain([1, 2, 3]);
    const b = chain([9, 2, 3]);
    const c = chain([2, 3]);
    expect(a[0]).not.toBe(b[0]);
    // Same content (2, then 3) as blocks 1-2 of `a`, but after another first block: no match.
    expect(b[1]).not.toBe(a[1]);
    expect(b[2]).not.toBe(a[2]);
    // Same content at position 0 instead of 1: no match either.
    expect(c[0]).not.toBe(a[1]);
    expect(c[1]).not.toBe(a[2]);
  });

  it('keeps hashes non-negative safe integers below 2^52', () => {
    let h = ROOT_HASH;
    for (let i = 0; i < 10_000; i++) {
      h = chainHash(h, i * 2654435761);
      expect(Number.isSafeInteger(h)).toBe(true);
      expect(h).toBeGreaterThanOrEqual(0);
      expect(h).toBeLessThan(2 ** 52);
    }
  });

  it('derives distinct content keys from names and block indices', () => {
    const g = hashString('group-a');
    expect(g).toBe(hashString('group-a'));
    expect(g).not.toBe(hashString('group-b'));
    expect(contentKey(g, 0)).not.toBe(contentKey(g, 1));
  });

  it('lets the prefix cache match only true common prefixes', () => {
    const kv = new KVCache({ totalBlocks: 8, blockSizeTokens: 4 });
    const a = chain([1, 2, 3]);
    expect(kv.allocate(0, 12, a, 0, true)).toBe(true);
    // Blocks 2 and 3 of `b` hold the same content as blocks 2 and 3 of `a`, after another first block.
    expect(kv.cachedPrefixBlocks(chain([9, 2, 3]))).toBe(0);
    // Content of `a`'s block 2 at position 1: not a hit.
    expect(kv.cachedPrefixBlocks(chain([1, 3]))).toBe(1);
    expect(kv.cachedPrefixBlocks(chain([1, 2, 7]))).toBe(2);
    expect(kv.cachedPrefixBlocks(a)).toBe(3);
    expect(kv.cachedPrefixBlocks(a, 2)).toBe(2);
  });
});

describe('KVCache examples (hand-computed)', () => {
  it('lets two prompts with a 3-block common prefix share exactly 3 blocks', () => {
    const kv = new KVCache({ totalBlocks: 20, blockSizeTokens: 16 });
    const p1 = chain([1, 2, 3, 4, 5]);
    const p2 = chain([1, 2, 3, 8, 9]);
    expect(kv.allocate(1, 80, p1, 0, true)).toBe(true);
    expect(kv.usedBlocks).toBe(5);

    expect(kv.cachedPrefixBlocks(p2)).toBe(3);
    // p2 is 80 tokens: 3 blocks from the cache, 32 new tokens in 2 new blocks.
    expect(kv.allocate(2, 80 - 3 * 16, p2, 3, true)).toBe(true);
    expect(kv.usedBlocks).toBe(7);
    expect(kv.blocksHeldBy(2)).toBe(5);
    expect(kv.tokensHeldBy(2)).toBe(80);
    expect(kv.stats()).toEqual({ cacheHits: 3, cacheMisses: 7, allocationFailures: 0 });
    expect(kv.cacheHitRate).toBeCloseTo(3 / 10, 12);

    // The shared blocks stay in use until both owners let go.
    kv.release(1);
    expect(kv.usedBlocks).toBe(5);
    kv.release(2);
    expect(kv.usedBlocks).toBe(0);
    expect(kv.freeBlocks).toBe(20);
    // Everything is still revivable: both prompts fully cached.
    expect(kv.cachedPrefixBlocks(p1)).toBe(5);
    expect(kv.cachedPrefixBlocks(p2)).toBe(5);
    kv.checkConsistency();
  });

  it('evicts the least recently freed block first, a request tail before its head', () => {
    const kv = new KVCache({ totalBlocks: 4, blockSizeTokens: 16 });
    const a = chain([1, 2]);
    const b = chain([3, 4]);
    expect(kv.allocate(1, 32, a, 0, true)).toBe(true);
    expect(kv.allocate(2, 32, b, 0, true)).toBe(true);
    expect(kv.freeBlocks).toBe(0);
    kv.release(1); // free list: a1, a0
    kv.release(2); // free list: a1, a0, b1, b0
    expect(kv.cachedPrefixBlocks(a)).toBe(2);
    expect(kv.cachedPrefixBlocks(b)).toBe(2);

    const fresh = chain([100]);
    expect(kv.allocate(3, 16, fresh, 0, true)).toBe(true); // takes a1
    expect(kv.cachedPrefixBlocks(a)).toBe(1);
    expect(kv.cachedPrefixBlocks(b)).toBe(2);
    expect(kv.allocate(4, 16, chain([101]), 0, true)).toBe(true); // takes a0
    expect(kv.cachedPrefixBlocks(a)).toBe(0);
    expect(kv.cachedPrefixBlocks(b)).toBe(2);
    expect(kv.allocate(5, 16, chain([102]), 0, true)).toBe(true); // takes b1
    expect(kv.cachedPrefixBlocks(b)).toBe(1);
    expect(kv.freeBlocks).toBe(1);
    kv.checkConsistency();
  });

  it('puts a freed block at the tail even when older free blocks were never used', () => {
    const kv = new KVCache({ totalBlocks: 3, blockSizeTokens: 16 });
    const a = chain([1]);
    expect(kv.allocate(1, 16, a, 0, true)).toBe(true); // block 0 (lowest id first)
    kv.release(1); // free list: 1, 2, 0
    expect(kv.allocate(2, 32, chain([5, 6]), 0, true)).toBe(true); // blocks 1 and 2
    expect(kv.cachedPrefixBlocks(a)).toBe(1);
    expect(kv.allocate(3, 16, chain([7]), 0, true)).toBe(true); // block 0: evicts `a`
    expect(kv.cachedPrefixBlocks(a)).toBe(0);
  });

  it('revives a freed block on a prefix hit and protects it from eviction while held', () => {
    const kv = new KVCache({ totalBlocks: 4, blockSizeTokens: 16 });
    const a = chain([1, 2]);
    expect(kv.allocate(1, 40, a, 0, true)).toBe(true); // 2 full blocks + 8 tokens
    expect(kv.usedBlocks).toBe(3);
    kv.release(1); // free list: 3, a-partial, a1, a0
    expect(kv.cachedPrefixBlocks(a)).toBe(2);

    // Same prompt again: both full blocks come back from the free list, 8 tokens are new.
    expect(kv.allocate(2, 8, a, 2, true)).toBe(true);
    expect(kv.usedBlocks).toBe(3);
    expect(kv.blocksHeldBy(2)).toBe(3);
    expect(kv.tokensHeldBy(2)).toBe(40);
    expect(kv.stats().cacheHits).toBe(2);

    // One block is left; a 2-block request does not fit and cannot evict the revived blocks.
    expect(kv.allocate(3, 32, chain([9, 9]), 0, true)).toBe(false);
    expect(kv.cachedPrefixBlocks(a)).toBe(2);
    expect(kv.allocate(3, 16, chain([9]), 0, true)).toBe(true);
    expect(kv.freeBlocks).toBe(0);
    expect(kv.cachedPrefixBlocks(a)).toBe(2);
    kv.checkConsistency();
  });

  it('fills the partially filled last block before taking a new one', () => {
    const kv = new KVCache({ totalBlocks: 4, blockSizeTokens: 16 });
    const h = chain([1, 2]);
    expect(kv.allocate(1, 10, h, 0, true)).toBe(true);
    expect(kv.blocksHeldBy(1)).toBe(1);
    expect(kv.blocksNeeded(1, 6)).toBe(0);
    expect(kv.blocksNeeded(1, 7)).toBe(1);
    // The first block becomes full: it is registered, so the prefix is now cached.
    expect(kv.cachedPrefixBlocks(h)).toBe(0);
    expect(kv.allocate(1, 6, h, 0, true)).toBe(true);
    expect(kv.blocksHeldBy(1)).toBe(1);
    expect(kv.cachedPrefixBlocks(h)).toBe(1);
    expect(kv.allocate(1, 17, h, 0, true)).toBe(true);
    expect(kv.blocksHeldBy(1)).toBe(3);
    expect(kv.tokensHeldBy(1)).toBe(33);
    expect(kv.cachedPrefixBlocks(h)).toBe(2);
  });

  it('appends decode tokens one at a time, taking a block every blockSize tokens', () => {
    const kv = new KVCache({ totalBlocks: 3, blockSizeTokens: 4 });
    const h = chain([1]);
    expect(kv.allocate(1, 4, h, 0, true)).toBe(true);
    for (let t = 1; t <= 8; t++) {
      expect(kv.appendToken(1, h)).toBe(true);
      expect(kv.tokensHeldBy(1)).toBe(4 + t);
      expect(kv.blocksHeldBy(1)).toBe(Math.ceil((4 + t) / 4));
    }
    // 12 tokens fill all 3 blocks: the 13th does not fit, and nothing changes.
    expect(kv.appendToken(1, h)).toBe(false);
    expect(kv.tokensHeldBy(1)).toBe(12);
    expect(kv.blocksHeldBy(1)).toBe(3);
    expect(kv.stats().allocationFailures).toBe(1);
    kv.checkConsistency();
  });

  it('rolls back a failed multi-block allocation completely', () => {
    const kv = new KVCache({ totalBlocks: 5, blockSizeTokens: 16 });
    const a = chain([1, 2]);
    expect(kv.allocate(1, 32, a, 0, true)).toBe(true);
    kv.release(1); // a's blocks are revivable
    expect(kv.allocate(2, 16, chain([5]), 0, true)).toBe(true); // 4 free: 2 unused + a1, a0 at the tail
    const before = { used: kv.usedBlocks, stats: kv.stats() };
    // Claims a0, a1 from the cache, then needs 4 new blocks with 2 left: must fail and undo.
    const b = chain([1, 2, 3, 4, 5, 6]);
    expect(kv.cachedPrefixBlocks(b)).toBe(2);
    expect(kv.allocate(3, 64, b, 2, true)).toBe(false);
    expect(kv.usedBlocks).toBe(before.used);
    expect(kv.holds(3)).toBe(false);
    expect(kv.blocksHeldBy(3)).toBe(0);
    expect(kv.stats()).toEqual({ ...before.stats, allocationFailures: before.stats.allocationFailures + 1 });
    expect(kv.cachedPrefixBlocks(a)).toBe(2);
    kv.checkConsistency();
    // An existing owner's failed growth keeps what it had.
    expect(kv.allocate(2, 100, chain([5]), 0, true)).toBe(false);
    expect(kv.tokensHeldBy(2)).toBe(16);
    expect(kv.blocksHeldBy(2)).toBe(1);
    kv.checkConsistency();
  });

  it('rolls back a failed decode allocation without dropping the blocks the owner had', () => {
    // vLLM/BLIS decode: the last block is full, a new one is needed and none is free.
    const kv = new KVCache({ totalBlocks: 2, blockSizeTokens: 4 });
    expect(kv.allocate(1, 4, chain([1]), 0, true)).toBe(true);
    expect(kv.allocate(2, 4, chain([2]), 0, true)).toBe(true);
    expect(kv.appendToken(1, chain([1]))).toBe(false);
    expect(kv.blocksHeldBy(1)).toBe(1);
    kv.release(1);
    expect(kv.usedBlocks).toBe(1);
    kv.checkConsistency();
  });

  it('reports utilization and free counts', () => {
    const kv = new KVCache({ totalBlocks: 8 });
    expect(kv.blockSizeTokens).toBe(16);
    expect(kv.utilization).toBe(0);
    expect(kv.cacheHitRate).toBe(0);
    expect(kv.allocate(0, 33, [], 0, true)).toBe(true);
    expect(kv.usedBlocks).toBe(3);
    expect(kv.freeBlocks).toBe(5);
    expect(kv.utilization).toBe(3 / 8);
  });
});

describe('KVCache typed errors', () => {
  it('rejects impossible sizes at construction', () => {
    expect(() => new KVCache({ totalBlocks: 0 })).toThrow(KVCacheError);
    expect(() => new KVCache({ totalBlocks: -3 })).toThrow(KVCacheError);
    expect(() => new KVCache({ totalBlocks: 2.5 })).toThrow(KVCacheError);
    expect(() => new KVCache({ totalBlocks: 4, blockSizeTokens: 0 })).toThrow(KVCacheError);
    expect(() => new KVCache({ totalBlocks: 4, blockSizeTokens: -16 })).toThrow(KVCacheError);
    // Block ids leave the top bits of an owner list's entries free (2^30 - 1 blocks at most).
    expect(() => new KVCache({ totalBlocks: 2 ** 30 })).toThrow('totalBlocks must be at most 1073741823, found 1073741824');
    expect(() => new KVCache({ totalBlocks: 2 ** 30 - 1 })).not.toThrow();
  });

  it('rejects negative or fractional token counts, cached-block counts and owners', () => {
    const kv = new KVCache({ totalBlocks: 4 });
    expect(() => kv.allocate(0, -1, [], 0, true)).toThrow(KVCacheError);
    expect(() => kv.allocate(0, 1.5, [], 0, false)).toThrow(KVCacheError);
    expect(() => kv.allocate(0, 16, [], -1, true)).toThrow(KVCacheError);
    expect(() => kv.allocate(-1, 16, [], 0, true)).toThrow(KVCacheError);
    expect(() => kv.allocate(0.5, 16, [], 0, true)).toThrow(KVCacheError);
    expect(() => kv.appendToken(-2, [])).toThrow(KVCacheError);
    // An impossible owner is an error even when the blocks would not fit anyway.
    expect(() => kv.allocate(-1, 16 * 100, [], 0, true)).toThrow(KVCacheError);
    expect(kv.stats().allocationFailures).toBe(0);
    expect(kv.usedBlocks).toBe(0);
    kv.checkConsistency();
  });

  it('rejects a claim on blocks that are not cached, leaving the cache as it was', () => {
    const kv = new KVCache({ totalBlocks: 4 });
    const h = chain([1, 2]);
    expect(kv.allocate(1, 16, h, 0, true)).toBe(true);
    kv.release(1);
    expect(kv.cachedPrefixBlocks(h)).toBe(1);
    // Block 0 is cached, block 1 is not: the claim of block 0 must be undone.
    expect(() => kv.allocate(0, 0, h, 2, true)).toThrow(KVCacheError);
    expect(kv.holds(0)).toBe(false);
    expect(kv.usedBlocks).toBe(0);
    expect(kv.stats().cacheHits).toBe(0);
    kv.checkConsistency();
    expect(kv.allocate(0, 16, h, 1, true)).toBe(true);
    expect(kv.blocksHeldBy(0)).toBe(2);
  });

  it('rejects a double release and a release of an owner that never allocated', () => {
    const kv = new KVCache({ totalBlocks: 4 });
    expect(() => kv.release(7)).toThrow(KVCacheError);
    expect(kv.allocate(1, 20, [], 0, true)).toBe(true);
    kv.release(1);
    expect(() => kv.release(1)).toThrow(/double release/);
    expect(kv.usedBlocks).toBe(0);
    expect(kv.freeBlocks).toBe(4);
    kv.checkConsistency();
  });
});
