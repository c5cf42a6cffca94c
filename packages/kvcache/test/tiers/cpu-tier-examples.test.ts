import { describe, expect, it } from 'vitest';
import { CpuTier, KVCache, ROOT_HASH, chainHash } from '../../src/index.js';
import { batchOf } from './mirror-batch.js';

// Reference §1.9 KV-1: legacy reload latency and hit rate, with the hand arithmetic.

const B = 16;

function chain(keys: number[]): number[] {
  const out: number[] = [];
  let h = ROOT_HASH;
  for (const k of keys) {
    h = chainHash(h, k);
    out.push(h);
  }
  return out;
}

/**
 * GPU holds h0, h1 (pinned by a running owner), the CPU holds h0..h4, the free GPU blocks carry
 * no hashes, h5 is nowhere. Built through the public operations only.
 */
function kv1Setup(bandwidth: number, baseLatency: number) {
  const gpu = new KVCache({ totalBlocks: 8, blockSizeTokens: B });
  const tier = new CpuTier({ kind: 'cpu', cpuBlocks: 16, transferBandwidth: bandwidth, transferBaseLatencyUs: baseLatency }, gpu);
  const h = chain([1, 2, 3, 4, 5, 6]);
  // Owner 0 computes blocks 0..4; the mirror copies them to the CPU.
  expect(gpu.allocate(0, 5 * B, h, 0, true)).toBe(true);
  tier.mirror(batchOf([{ owner: 0, hashes: h, inputTokens: 5 * B }]), 0);
  // Owner 1 pins h0, h1 (a running request sharing the first two blocks).
  expect(gpu.allocate(1, 0, h, 2, true)).toBe(true);
  gpu.release(0);
  // Owner 2 (unrelated, unhashed) takes every free block, evicting h2..h4 from the GPU.
  expect(gpu.allocate(2, 6 * B, [], 0, true)).toBe(true);
  gpu.release(2);
  expect(gpu.cachedPrefixBlocks(h)).toBe(2);
  expect(gpu.holdsHash(h[2])).toBe(false);
  return { gpu, tier, h };
}

describe('CPU tier: KV-1', () => {
  it('reloads h2..h4, charges 3 × (0 + ceil(16/100)) = 3 µs, and the request gets 5 hits and 1 miss', () => {
    const { gpu, tier, h } = kv1Setup(100, 0);
    const before = gpu.stats();
    const cached = tier.admit(7, h, 6, 0);
    expect(tier.lastReloaded).toBe(3);
    expect(cached).toBe(5);
    expect(tier.consumeTransferLatency()).toBe(3);
    expect(tier.consumeTransferLatency()).toBe(0);
    // The prompt's last block is computed: [80, 96).
    expect(gpu.allocate(3, 96 - cached * B, h, cached, true)).toBe(true);
    const after = gpu.stats();
    expect(after.cacheHits - before.cacheHits).toBe(5);
    expect(after.cacheMisses - before.cacheMisses).toBe(1);
    expect(tier.stats().reloaded).toBe(3);
  });

  it('charges 10 + ceil(16/4) = 14 µs per block with bandwidth 4 and base latency 10: 42 for three', () => {
    const { tier, h } = kv1Setup(4, 10);
    tier.admit(7, h, 6, 0);
    expect(tier.consumeTransferLatency()).toBe(42);
  });

  it('without the CPU tier the same request would get 2 hits and 4 misses', () => {
    const { gpu, h } = kv1Setup(100, 0);
    const before = gpu.stats();
    expect(gpu.allocate(3, 96 - 2 * B, h, 2, true)).toBe(true);
    expect(gpu.stats().cacheHits - before.cacheHits).toBe(2);
    expect(gpu.stats().cacheMisses - before.cacheMisses).toBe(4);
  });

  it('keeps the request\'s own GPU-cached prefix and reloads into other free blocks only', () => {
    const gpu = new KVCache({ totalBlocks: 4, blockSizeTokens: B });
    const tier = new CpuTier({ kind: 'cpu', cpuBlocks: 8, transferBandwidth: 100, transferBaseLatencyUs: 0 }, gpu);
    const h = chain([1, 2, 3, 4]);
    expect(gpu.allocate(0, 3 * B, h, 0, true)).toBe(true);
    tier.mirror(batchOf([{ owner: 0, hashes: h, inputTokens: 3 * B }]), 0);
    gpu.release(0);
    // Owner 1 takes the never-used block and h2's (freed first), evicting h2.
    expect(gpu.allocate(1, 2 * B, [], 0, true)).toBe(true);
    expect(gpu.cachedPrefixBlocks(h)).toBe(2);
    // The two free blocks hold h0 and h1, the request's own cached prefix: they are kept, so
    // nothing can be reloaded (BLIS would reload h2 into h0's block, losing h0).
    expect(tier.admit(9, h, 4, 0)).toBe(2);
    expect(tier.lastReloaded).toBe(0);
    // With two more free blocks h2 is reloaded; h3 is nowhere, so the walk stops there.
    gpu.release(1);
    expect(tier.admit(9, h, 4, 0)).toBe(3);
    expect(tier.lastReloaded).toBe(1);
    expect(gpu.freeBlocks).toBe(4);
  });

  it('thrashing: mirroring 5 distinct new blocks into 2 CPU blocks gives 5 mirrors, 3 evictions, rate 0.6', () => {
    const gpu = new KVCache({ totalBlocks: 8, blockSizeTokens: B });
    const tier = new CpuTier({ kind: 'cpu', cpuBlocks: 2, transferBandwidth: 100, transferBaseLatencyUs: 0 }, gpu);
    const h = chain([1, 2, 3, 4, 5]);
    expect(gpu.allocate(0, 5 * B, h, 0, true)).toBe(true);
    tier.mirror(batchOf([{ owner: 0, hashes: h, inputTokens: 5 * B }]), 0);
    expect(tier.stats().mirrored).toBe(5);
    expect(tier.stats().cpuEvictions).toBe(3);
    expect(tier.thrashingRate()).toBeCloseTo(0.6, 12);
    expect(tier.cpuOrder()).toEqual([h[3], h[4]]);
  });

  it('counts allocation failures the CPU could not help in the hit rate: hits / (hits + misses + tier misses)', () => {
    const gpu = new KVCache({ totalBlocks: 4, blockSizeTokens: B });
    const tier = new CpuTier({ kind: 'cpu', cpuBlocks: 2, transferBandwidth: 100, transferBaseLatencyUs: 0 }, gpu);
    const h = chain([1, 2]);
    expect(gpu.allocate(0, 2 * B, h, 0, true)).toBe(true); // 2 misses
    expect(gpu.allocate(1, 0, h, 2, true)).toBe(true); // 2 hits
    tier.allocationFailed();
    expect(tier.cacheHitRate()).toBeCloseTo(2 / 5, 12);
  });

  it('mirrors only full hashed blocks: the partial last block and unhashed decode blocks stay on the GPU', () => {
    const gpu = new KVCache({ totalBlocks: 8, blockSizeTokens: B });
    const tier = new CpuTier({ kind: 'cpu', cpuBlocks: 8, transferBandwidth: 100, transferBaseLatencyUs: 0 }, gpu);
    const h = chain([1, 2]);
    // 40-token prompt: blocks 0, 1 full and hashed, block 2 partial; then 30 decode tokens unhashed.
    expect(gpu.allocate(0, 40, h, 0, true)).toBe(true);
    expect(gpu.allocate(0, 30, [], 0, false)).toBe(true);
    tier.mirror(batchOf([{ owner: 0, hashes: h, inputTokens: 40 }]), 0);
    expect(tier.cpuOrder()).toEqual([h[0], h[1]]);
  });
});
