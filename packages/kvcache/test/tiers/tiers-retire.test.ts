import { describe, expect, it } from 'vitest';
import { CpuTier, KVCache, KVCacheError, type KVTiers, OffloadChain, ROOT_HASH, contentKey, fillBlockHashes, hashString } from '../../src/index.js';
import { retainedBytes } from '../retained-bytes.js';
import { chainConfig, fsTier, mirrorOf } from './helpers.js';
import { batchOf } from './mirror-batch.js';

// A retired tier model (a terminated replica's) keeps its counters and rates and gives back its
// CPU blocks, key indexes and transfers in flight; stepping it again throws.

const B = 16;

function promptHashes(name: string, blocks: number): Float64Array {
  const h = new Float64Array(blocks);
  fillBlockHashes(h, 0, blocks, ROOT_HASH, (i) => contentKey(hashString(name), i));
  return h;
}

/** What results read of a tier model. */
function observed(t: KVTiers) {
  return { stats: t.stats(), hitRate: t.cacheHitRate(), thrashing: t.thrashingRate() };
}

/** Runs prompts through `gpu` behind `tier` (mirror each, then flush the GPU so the next reloads), leaving the GPU empty. */
function churn(gpu: KVCache, tier: KVTiers, prompts: Float64Array[]): void {
  let now = 0;
  for (let round = 0; round < 2; round++) {
    for (const [i, h] of prompts.entries()) {
      now += 1000;
      tier.setClock(now);
      tier.pollDeferred(now);
      const cached = tier.admit(i, h, h.length, now);
      if (cached < 0) continue;
      expect(gpu.allocate(0, (h.length - cached) * B, h, cached, true)).toBe(true);
      tier.mirror(batchOf([{ owner: 0, hashes: h, inputTokens: h.length * B }]), now);
      tier.consumeTransferLatency();
      gpu.release(0);
      expect(gpu.allocate(1, gpu.totalBlocks * B, [], 0, true)).toBe(true);
      gpu.release(1);
    }
  }
}

function expectRetiredCalls(tier: KVTiers): void {
  const h = promptHashes('late', 2);
  expect(() => tier.admit(99, h, 2, 1e9)).toThrow(new KVCacheError('cannot admit on a retired KV tier'));
  expect(() => tier.mirror(mirrorOf([0], [32]), 1e9)).toThrow(new KVCacheError('cannot mirror on a retired KV tier'));
}

describe('KVTiers.retire()', () => {
  it('CPU tier: counters and rates stay, the CPU list and per-owner arrays go', () => {
    const gpu = new KVCache({ totalBlocks: 64, blockSizeTokens: B });
    const tier = new CpuTier({ kind: 'cpu', cpuBlocks: 20_000, transferBandwidth: 100, transferBaseLatencyUs: 5 }, gpu);
    churn(gpu, tier, [promptHashes('a', 12), promptHashes('b', 20), promptHashes('c', 8)]);
    const before = observed(tier);
    expect(before.stats.reloaded).toBeGreaterThan(0);
    expect(before.stats.mirrored).toBeGreaterThan(0);
    expect(retainedBytes(tier)).toBeGreaterThan(20_000 * 28);
    gpu.retire();
    tier.retire();
    expect(observed(tier)).toEqual(before);
    expect(retainedBytes(tier)).toBeLessThan(4096);
    expect(tier.cpuOrder()).toEqual([]);
    tier.checkConsistency();
    expectRetiredCalls(tier);
    tier.retire();
    expect(observed(tier)).toEqual(before);
  });

  it('offload chain: counters and rates stay; the staging tier, secondary key sets and transfers in flight go', () => {
    const gpu = new KVCache({ totalBlocks: 64, blockSizeTokens: B });
    const chain = new OffloadChain(chainConfig(20_000, [fsTier('nvme_gen4')]), gpu);
    const prompts = Array.from({ length: 6 }, (_, i) => promptHashes(`p${i}`, 10));
    churn(gpu, chain, prompts);
    // One more mirror whose writes are still in flight when the chain is retired.
    const late = promptHashes('late', 4);
    expect(gpu.allocate(0, 4 * B, late, 0, true)).toBe(true);
    chain.mirror(mirrorOf([0], [4 * B]), 1e7);
    gpu.release(0);
    const before = observed(chain);
    expect(before.stats.mirrored).toBeGreaterThan(0);
    expect(before.stats.secondaryWrites[0]).toBeGreaterThan(0);
    expect(retainedBytes(chain)).toBeGreaterThan(20_000 * 28);
    gpu.retire();
    chain.retire();
    expect(observed(chain)).toEqual(before);
    expect(retainedBytes(chain)).toBeLessThan(4096);
    chain.checkConsistency();
    expectRetiredCalls(chain);
    expect(() => chain.setClock(2e7)).toThrow(new KVCacheError('cannot set the clock on a retired KV tier'));
    expect(() => chain.pollDeferred(2e7)).toThrow(new KVCacheError('cannot poll deferrals on a retired KV tier'));
    expect(chain.isDeferred(0)).toBe(false);
    // The counters a caller is handed are copies.
    chain.stats().secondaryWrites[0] = -1;
    expect(observed(chain)).toEqual(before);
  });
});
