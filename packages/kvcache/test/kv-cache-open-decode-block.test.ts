import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KVCache, ROOT_HASH, fillBlockHashes } from '../src/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// openDecodeBlock is a shortcut for `allocate(owner, n, hashes, 0, false)` + `deferrableTokens`:
// two caches take the same random operations, one through each, and must stay identical in
// every observable (free order, prefix index, owners' lists, counters) after every operation.

const OWNERS = 5;

type Op =
  | { t: 'admit'; owner: number; prompt: number; blocks: number; extra: number; useCache: boolean }
  // `pick` chooses the token count: what the engine hands over (deferrable + 1), the last
  // block's whole room + 1 (completing a hashed block), or an arbitrary count.
  | { t: 'open'; owner: number; prompt: number; hashes: 'all' | 'none' | 'some'; pick: 'engine' | 'room' | 'any'; any: number }
  | { t: 'release'; owner: number }
  | { t: 'place'; key: number };

const owner = fc.integer({ min: -1, max: OWNERS - 1 });
const prompt = fc.nat(3);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('admit' as const), owner, prompt, blocks: fc.nat(6), extra: fc.nat(15), useCache: fc.boolean() }),
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('open' as const),
      owner,
      prompt,
      hashes: fc.constantFrom('all' as const, 'none' as const, 'some' as const),
      pick: fc.constantFrom('engine' as const, 'engine' as const, 'room' as const, 'any' as const),
      any: fc.nat(40),
    }),
  },
  fc.record({ t: fc.constant('release' as const), owner }),
  // Another tier's block put back: takes (evicts) the oldest free block like an allocation.
  fc.record({ t: fc.constant('place' as const), key: fc.nat(1_000_000) }),
);

const scenario = fc.record({
  totalBlocks: fc.integer({ min: 1, max: 30 }),
  blockSize: fc.constantFrom(1, 2, 3, 4, 16),
  // Prompts over a 2-letter alphabet of block contents, long enough to hash decode blocks too.
  prompts: fc.array(fc.array(fc.nat(1), { minLength: 0, maxLength: 12 }), { minLength: 4, maxLength: 4 }),
  ops: fc.array(opArb, { maxLength: 120 }),
});

const ALL = Array.from({ length: OWNERS }, (_, o) => o);

function hashesFor(h: readonly number[], mode: 'all' | 'none' | 'some', kv: KVCache, owner: number): readonly number[] {
  if (mode === 'all') return h;
  if (mode === 'none') return [];
  // Up to (and sometimes past) the owner's last block, as the engine's choice does.
  return h.slice(0, Math.max(0, kv.blocksHeldBy(owner) - 1 + (owner & 1)));
}

describe('KVCache.openDecodeBlock', () => {
  it('evolves the cache exactly as allocate + deferrableTokens', () => {
    fc.assert(
      fc.property(scenario, ({ totalBlocks, blockSize: bs, prompts, ops }) => {
        const fast = new KVCache({ totalBlocks, blockSizeTokens: bs });
        const slow = new KVCache({ totalBlocks, blockSizeTokens: bs });
        const hashes = prompts.map((keys) => {
          const h = new Array<number>(keys.length);
          fillBlockHashes(h, 0, keys.length, ROOT_HASH, (i) => keys[i]);
          return h;
        });
        for (const op of ops) {
          switch (op.t) {
            case 'admit': {
              if (op.owner < 0 || slow.holds(op.owner)) continue;
              const h = hashes[op.prompt];
              const cached = op.useCache ? slow.cachedPrefixBlocks(h) : 0;
              const tokens = op.blocks * bs + (op.extra % bs);
              expect(fast.allocate(op.owner, tokens, h, cached, true)).toBe(slow.allocate(op.owner, tokens, h, cached, true));
              break;
            }
            case 'open': {
              if (op.owner >= 0 && !slow.holds(op.owner)) continue;
              const o = op.owner;
              const h = hashesFor(hashes[op.prompt], op.hashes, slow, o);
              const room = o < 0 ? 0 : slow.blocksHeldBy(o) * bs - slow.tokensHeldBy(o);
              const n = op.pick === 'engine' ? slow.deferrableTokens(o, h) + 1 : op.pick === 'room' ? room + 1 : op.any;
              if (o < 0) {
                // An owner the table cannot hold: both refuse it the same way.
                expect(() => fast.openDecodeBlock(o, n, h)).toThrow();
                expect(() => slow.allocate(o, n, h, 0, false)).toThrow();
                continue;
              }
              const ok = slow.allocate(o, n, h, 0, false);
              const expected = ok ? slow.deferrableTokens(o, h) : -1;
              expect(fast.openDecodeBlock(o, n, h)).toBe(expected);
              break;
            }
            case 'release': {
              if (op.owner < 0 || !slow.holds(op.owner)) continue;
              fast.release(op.owner);
              slow.release(op.owner);
              break;
            }
            case 'place': {
              // placeFreeBlock takes a hash the index does not hold yet.
              const hash = op.key * 7919 + 1;
              if (slow.holdsHash(hash)) continue;
              expect(fast.placeFreeBlock(hash)).toBe(slow.placeFreeBlock(hash));
              break;
            }
          }
          expect(fast.snapshot(ALL)).toEqual(slow.snapshot(ALL));
          expect(fast.layoutVersion).toBe(slow.layoutVersion);
          fast.checkConsistency();
        }
      }),
      { numRuns: propertyRuns(500), verbose: true },
    );
  });

  it('opens a block past a full one and past a partly filled one, returning the new room', () => {
    const kv = new KVCache({ totalBlocks: 4, blockSizeTokens: 4 });
    const h = [11, 12];
    expect(kv.allocate(0, 6, h, 0, true)).toBe(true);
    // Block 1 holds 2 tokens and its hash is known: 1 may wait, the 2nd completes it.
    expect(kv.deferrableTokens(0, h)).toBe(1);
    // Without its hash, 2 fill it and a 3rd opens block 2 (no hash for it: 3 of room).
    expect(kv.openDecodeBlock(0, 3, [])).toBe(3);
    expect(kv.tokensHeldBy(0)).toBe(9);
    expect(kv.blocksHeldBy(0)).toBe(3);
    // Block 2 full (12 tokens) is reached by another 3; then 1 more opens block 3.
    expect(kv.allocate(0, 3, [], 0, false)).toBe(true);
    expect(kv.openDecodeBlock(0, 1, [])).toBe(3);
    expect(kv.freeBlocks).toBe(0);
    // No block left: the failure is counted and nothing else changes.
    expect(kv.allocate(0, 3, [], 0, false)).toBe(true);
    const full = kv.snapshot([0]);
    expect(kv.openDecodeBlock(0, 1, [])).toBe(-1);
    expect(kv.snapshot([0])).toEqual({ ...full, stats: { ...full.stats, allocationFailures: full.stats.allocationFailures + 1 } });
  });
});
