import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KVCache, KVCacheError, ROOT_HASH, fillBlockHashes } from '../src/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// The delayed prefix-cache view a router reads (`--cache-signal-delay`): after a refresh it
// answers exactly as the live cache does; between refreshes it answers as the cache did at the
// last refresh, whatever the cache did since (allocations, evictions, releases).

const OWNERS = 5;

type Op =
  | { t: 'admit'; owner: number; prompt: number; blocks: number; short: number }
  | { t: 'decode'; owner: number; prompt: number }
  | { t: 'release'; owner: number }
  | { t: 'refresh' };

const owner = fc.integer({ min: 0, max: OWNERS - 1 });
const prompt = fc.nat(5);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('admit' as const), owner, prompt, blocks: fc.integer({ min: 1, max: 8 }), short: fc.nat(15) }),
  fc.record({ t: fc.constant('decode' as const), owner, prompt }),
  fc.record({ t: fc.constant('release' as const), owner }),
  fc.record({ t: fc.constant('refresh' as const) }),
);

const scenario = fc.record({
  totalBlocks: fc.integer({ min: 1, max: 30 }),
  blockSize: fc.constantFrom(1, 4, 16),
  prompts: fc.array(fc.array(fc.nat(1), { maxLength: 8 }), { minLength: 6, maxLength: 6 }),
  ops: fc.array(opArb, { maxLength: 120 }),
});

describe('KVCache.openPrefixSignal()', () => {
  it('answers as the cache did at its last refresh, and as the live cache right after one', () => {
    fc.assert(
      fc.property(scenario, ({ totalBlocks, blockSize, prompts, ops }) => {
        const kv = new KVCache({ totalBlocks, blockSizeTokens: blockSize });
        const hashes = prompts.map((keys) => {
          const h = new Array<number>(keys.length);
          fillBlockHashes(h, 0, keys.length, ROOT_HASH, (i) => keys[i]);
          return h;
        });
        // Every block hash alone as well as every prompt: membership, not just leading runs.
        const queries = [...hashes, ...hashes.flatMap((h) => h.map((x) => [x]))];
        const live = () => queries.map((h) => kv.cachedPrefixBlocks(h));
        const signal = kv.openPrefixSignal();
        let seen = live();
        for (const op of ops) {
          if (op.t === 'admit') {
            // Sized in blocks, so that allocations fit often and evict cached blocks.
            const tokens = op.blocks * blockSize - (op.short % blockSize);
            if (!kv.holds(op.owner)) kv.allocate(op.owner, tokens, hashes[op.prompt], kv.cachedPrefixBlocks(hashes[op.prompt]), true);
          } else if (op.t === 'decode') {
            if (kv.holds(op.owner)) kv.appendToken(op.owner, hashes[op.prompt]);
          } else if (op.t === 'release') {
            if (kv.holds(op.owner)) kv.release(op.owner);
          } else {
            signal.refresh();
            seen = live();
          }
          expect(queries.map((h) => signal.cachedPrefixBlocks(h))).toEqual(seen);
          kv.checkConsistency();
        }
        signal.refresh();
        expect(queries.map((h) => signal.cachedPrefixBlocks(h))).toEqual(live());
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('sees an eviction only after a refresh (hand example)', () => {
    // 2 blocks of 4 tokens. Owner 0 fills both with prompt A, releases them (they stay cached);
    // owner 1's unrelated 8 tokens then evict both.
    const kv = new KVCache({ totalBlocks: 2, blockSizeTokens: 4 });
    const a = [11, 12];
    const signal = kv.openPrefixSignal();
    expect(kv.allocate(0, 8, a, 0, true)).toBe(true);
    expect(signal.cachedPrefixBlocks(a)).toBe(0); // registered after the view was taken
    signal.refresh();
    expect(signal.cachedPrefixBlocks(a)).toBe(2);
    kv.release(0);
    expect(kv.allocate(1, 8, [21, 22], 0, true)).toBe(true);
    expect(kv.cachedPrefixBlocks(a)).toBe(0);
    expect(signal.cachedPrefixBlocks(a)).toBe(2); // the router still believes A is there
    expect(signal.cachedPrefixBlocks([21, 22])).toBe(0);
    signal.refresh();
    expect(signal.cachedPrefixBlocks(a)).toBe(0);
    expect(signal.cachedPrefixBlocks([21, 22])).toBe(2);
  });

  it('is one per cache', () => {
    const kv = new KVCache({ totalBlocks: 4, blockSizeTokens: 4 });
    kv.openPrefixSignal();
    expect(() => kv.openPrefixSignal()).toThrow(KVCacheError);
  });
});
