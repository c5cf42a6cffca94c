import { describe, expect, it } from 'vitest';
import { KVCache, OffloadChain, ROOT_HASH, contentKey, fillBlockHashes, hashString } from '../../src/index.js';
import { chainConfig, fsTier, mirrorOf } from './helpers.js';

function promptHashes(name: string, blocks: number): Float64Array {
  const h = new Float64Array(blocks);
  fillBlockHashes(h, 0, blocks, ROOT_HASH, (i) => contentKey(hashString(name), i));
  return h;
}

/** KV-4's request: a 24-token prompt and 36 decoded tokens in 4 blocks; blocks 0–2 full and hashed, block 3 holds 12. */
function kv4Cache(): { gpu: KVCache; hashes: Float64Array } {
  const gpu = new KVCache({ totalBlocks: 16, blockSizeTokens: 16 });
  // Hashes over the decoded positions too, so the full decode blocks are hashed as BLIS hashes them.
  const hashes = promptHashes('kv4', 3);
  expect(gpu.allocate(0, 24, hashes, 0, true)).toBe(true);
  for (let i = 0; i < 36; i++) expect(gpu.appendToken(0, hashes)).toBe(true);
  expect(gpu.blocksHeldBy(0)).toBe(4);
  expect(gpu.tokensHeldBy(0)).toBe(60);
  expect([0, 1, 2, 3].map((i) => gpu.blockHash(gpu.ownerBlock(0, i)))).toEqual([hashes[0], hashes[1], hashes[2], -1]);
  return { gpu, hashes };
}

describe('OffloadChain.mirror: the prompt-only clamp (reference §1.9 KV-4)', () => {
  it('offloadPromptOnly: min(4·16, 24) = 24 tokens, floor(24/16) = 1 block', () => {
    const { gpu } = kv4Cache();
    const chain = new OffloadChain(chainConfig(8, [], { offloadPromptOnly: true }), gpu);
    chain.mirror(mirrorOf([0], [24]), 0);
    expect(chain.stats().mirrored).toBe(1);
    chain.checkConsistency();
  });

  it('without it: floor(64/16) = 4 blocks in range, of which the full, hashed 0, 1 and 2 are stored', () => {
    const { gpu } = kv4Cache();
    const chain = new OffloadChain(chainConfig(8, [], { offloadPromptOnly: false }), gpu);
    chain.mirror(mirrorOf([0], [24]), 0);
    expect(chain.stats().mirrored).toBe(3);
  });

  it('a block already on the CPU tier is touched, not stored again', () => {
    const { gpu } = kv4Cache();
    const chain = new OffloadChain(chainConfig(8, [], { offloadPromptOnly: false }), gpu);
    chain.mirror(mirrorOf([0], [24]), 0);
    chain.mirror(mirrorOf([0], [24]), 10);
    expect(chain.stats().mirrored).toBe(3);
    expect(chain.stats().cpuEvictions).toBe(0);
  });

  it('skips an owner that holds nothing', () => {
    const { gpu } = kv4Cache();
    const chain = new OffloadChain(chainConfig(8, []), gpu);
    chain.mirror(mirrorOf([5, 0], [64, 24]), 0);
    expect(chain.stats().mirrored).toBe(1);
  });
});

describe('OffloadChain.mirror: cascade writes', () => {
  it('a stored block is pinned until its write lands, so a full tier of pinned blocks skips the store', () => {
    // CPU capacity 1, one nvme_gen4 tier: a one-block write takes 80 + floor(2,097,152 / 5000) = 499.
    const gpu = new KVCache({ totalBlocks: 8, blockSizeTokens: 16 });
    const hashes = promptHashes('p', 2);
    gpu.allocate(0, 32, hashes, 0, true);
    const chain = new OffloadChain(chainConfig(1, [fsTier()]), gpu);
    chain.mirror(mirrorOf([0], [32]), 0); // block 0 stored and pinned; block 1 finds no evictable victim
    expect(chain.stats()).toMatchObject({ mirrored: 1, mirrorSkipped: 1, secondaryWrites: [0] });
    chain.setClock(498);
    expect(chain.stats().secondaryWrites).toEqual([0]);
    chain.setClock(499); // the write lands: block 0 is on the tier and unpinned
    expect(chain.stats().secondaryWrites).toEqual([1]);
    chain.mirror(mirrorOf([0], [32]), 500); // block 0 touched; block 1 evicts it
    expect(chain.stats()).toMatchObject({ mirrored: 2, mirrorSkipped: 1, cpuEvictions: 1 });
    chain.setClock(999); // written at 500, lands at 999
    expect(chain.stats().secondaryWrites).toEqual([2]);
    chain.checkConsistency();
  });

  it('writes to every tier in parallel and unpins only when the last write lands', () => {
    // nvme_gen4 lands at 499, sata_ssd at 150 + floor(2,097,152 / 500) = 4344.
    const gpu = new KVCache({ totalBlocks: 8, blockSizeTokens: 16 });
    const a = promptHashes('a', 1);
    const b = promptHashes('b', 1);
    gpu.allocate(0, 16, a, 0, true);
    gpu.allocate(1, 16, b, 0, true);
    const chain = new OffloadChain(chainConfig(1, [fsTier('nvme_gen4'), fsTier('sata_ssd')]), gpu);
    chain.mirror(mirrorOf([0], [16]), 0);
    chain.setClock(499);
    expect(chain.stats().secondaryWrites).toEqual([1, 0]);
    chain.mirror(mirrorOf([1], [16]), 500); // a is still pinned by its sata_ssd write
    expect(chain.stats().mirrorSkipped).toBe(1);
    chain.setClock(4344);
    expect(chain.stats().secondaryWrites).toEqual([1, 1]);
    chain.mirror(mirrorOf([1], [16]), 4344);
    expect(chain.stats()).toMatchObject({ mirrored: 2, cpuEvictions: 1 });
    chain.checkConsistency();
  });
});
