import { describe, expect, it } from 'vitest';
import { KVCache, ROOT_HASH, fillBlockHashes } from '../src/index.js';

// Issue #13, rule 3: a block completed by generated tokens is registered like a prompt block
// when the caller supplies its hash (vLLM caches every full block).

function chain(keys: readonly number[]): number[] {
  const out = new Array<number>(keys.length);
  fillBlockHashes(out, 0, keys.length, ROOT_HASH, (i) => keys[i]);
  return out;
}

describe('blocks completed by decode', () => {
  it('are registered under the hash of their position, one token at a time or deferred', () => {
    // 4-token blocks; a 6-token prompt (1 full block) then 7 generated tokens: 13 tokens,
    // 3 full blocks. Hashes cover all three.
    for (const deferred of [false, true]) {
      const kv = new KVCache({ totalBlocks: 8, blockSizeTokens: 4 });
      const h = chain([1, 2, 3]);
      expect(kv.allocate(0, 6, h, 0, true)).toBe(true);
      expect(kv.cachedPrefixBlocks(h)).toBe(1);
      let pending = 0;
      for (let t = 0; t < 7; t++) {
        if (!deferred) {
          expect(kv.appendToken(0, h)).toBe(true);
        } else if (pending < kv.deferrableTokens(0, h)) {
          pending++;
        } else {
          expect(kv.allocate(0, pending + 1, h, 0, false)).toBe(true);
          pending = 0;
        }
        // Block 1 completes at token 8 (t = 1), block 2 at token 12 (t = 5): registered then.
        const stored = kv.tokensHeldBy(0) + pending;
        expect(kv.cachedPrefixBlocks(h)).toBe(Math.min(3, Math.floor(stored / 4)));
      }
      kv.checkConsistency();
      kv.release(0);
      expect(kv.cachedPrefixBlocks(h)).toBe(3);
    }
  });

  it('holds back the token that completes a hashed block from deferral, and only that one', () => {
    const kv = new KVCache({ totalBlocks: 8, blockSizeTokens: 16 });
    const h = chain([1, 2]);
    expect(kv.allocate(0, 20, h, 0, true)).toBe(true);
    // Block 1 holds 4 tokens, 12 of room: 11 may wait, the 12th registers the block.
    expect(kv.deferrableTokens(0, h)).toBe(11);
    // Without a hash for block 1 the whole room may wait (the parity path).
    expect(kv.deferrableTokens(0, h.slice(0, 1))).toBe(12);
  });

  it('are registered when filled whole by a decode allocation of 1-token blocks', () => {
    const kv = new KVCache({ totalBlocks: 8, blockSizeTokens: 1 });
    const h = chain([1, 2, 3, 4]);
    expect(kv.allocate(0, 2, h, 0, true)).toBe(true);
    expect(kv.appendToken(0, h)).toBe(true);
    expect(kv.allocate(0, 1, h, 0, false)).toBe(true);
    expect(kv.cachedPrefixBlocks(h)).toBe(4);
  });
});
