import { describe, expect, it } from 'vitest';
import { KVCache, OffloadChain, ROOT_HASH, contentKey, fillBlockHashes, hashString } from '../../src/index.js';
import { chainConfig, mirrorOf } from './helpers.js';

function promptHashes(name: string, blocks: number): Float64Array {
  const h = new Float64Array(blocks);
  fillBlockHashes(h, 0, blocks, ROOT_HASH, (i) => contentKey(hashString(name), i));
  return h;
}

/** Takes every free GPU block for `owner` (no hashes: they evict what the blocks carried). */
function fill(gpu: KVCache, owner: number, blocks = gpu.freeBlocks): void {
  expect(gpu.allocate(owner, blocks * gpu.blockSizeTokens, [], 0, true)).toBe(true);
}

/** A CPU-only chain (no secondary tier) whose CPU holds prompt P's 4 blocks, none of them left on the 8-block GPU. */
function cpuOnly(): { gpu: KVCache; chain: OffloadChain; p: Float64Array } {
  const gpu = new KVCache({ totalBlocks: 8, blockSizeTokens: 16 });
  const chain = new OffloadChain(chainConfig(8, []), gpu);
  const p = promptHashes('P', 4);
  expect(gpu.allocate(0, 64, p, 0, true)).toBe(true);
  chain.mirror(mirrorOf([0], [64]), 0);
  gpu.release(0);
  fill(gpu, 1);
  gpu.release(1);
  expect(gpu.cachedPrefixBlocks(p)).toBe(0);
  return { gpu, chain, p };
}

describe('OffloadChain read path (no secondary tier)', () => {
  it('reloads the CPU-held prompt blocks onto the GPU free list at no cost, never deferring', () => {
    const { gpu, chain, p } = cpuOnly();
    expect(chain.admit(7, p, 4, 1000)).toBe(4);
    expect(chain.lastReloaded).toBe(4);
    expect(chain.isDeferred(7)).toBe(false);
    expect(chain.consumeTransferLatency()).toBe(0);
    expect(gpu.usedBlocks).toBe(0); // on the free list, owned by no one
    expect(gpu.allocate(2, 0, p, 4, true)).toBe(true);
    // Hits: the 4 reloaded blocks. Misses: 4 (owner 0) + 8 (owner 1).
    expect(chain.stats()).toMatchObject({ reloaded: 4, gpuHits: 4, gpuMisses: 12, deferrals: 0, transferLatencyUs: 0 });
    chain.checkConsistency();
  });

  it('reloads at most as many blocks as the GPU had free when the walk started', () => {
    const { gpu, chain, p } = cpuOnly();
    fill(gpu, 1, 6); // 2 free blocks left
    expect(chain.admit(7, p, 4, 1000)).toBe(2);
    expect(chain.lastReloaded).toBe(2);
  });

  it('walks only prompt blocks and stops at the first block the CPU lacks', () => {
    const { chain, p } = cpuOnly();
    expect(chain.admit(7, p, 2, 1000)).toBe(2); // a prompt of 2 full blocks
    const q = promptHashes('Q', 3);
    expect(chain.admit(8, q, 3, 1000)).toBe(0);
    expect(chain.lastReloaded).toBe(0);
    expect(chain.stats().reloaded).toBe(2);
  });

  it('cacheHitRate counts failed allocations no tier helped; thrashing is 0 without promotions', () => {
    const { gpu, chain, p } = cpuOnly();
    chain.admit(7, p, 4, 1000);
    gpu.allocate(2, 0, p, 4, true);
    chain.allocationFailed();
    // 4 hits / (4 hits + 12 misses + 1 tier miss).
    expect(chain.cacheHitRate()).toBeCloseTo(4 / 17, 12);
    expect(chain.stats().tierMisses).toBe(1);
    expect(chain.thrashingRate()).toBe(0);
  });

  it('refuses what BLIS cannot run', () => {
    const gpu = new KVCache({ totalBlocks: 8 });
    expect(() => new OffloadChain(chainConfig(4, [], { blocksPerChunk: 2 }), gpu)).toThrow(/blocksPerChunk/);
    expect(() => new OffloadChain(chainConfig(0, []), gpu)).toThrow(/capacity/);
    expect(() => new OffloadChain(chainConfig(4, [], { perBlockBytes: 0 }), gpu)).toThrow(/perBlockBytes/);
  });
});
