import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KVCache, KVCacheError, ROOT_HASH, fillBlockHashes } from '../src/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// Random operation sequences against a real cache, checked after every operation against what
// the caller can observe: INV-4, per-owner accounting, all-or-nothing allocation, no double free.

const OWNERS = 6;

type Op =
  | { t: 'admit'; owner: number; prompt: number; tokens: number; useCache: boolean; extra?: number }
  | { t: 'grow'; owner: number; prompt: number; tokens: number; prefill: boolean }
  | { t: 'decode'; owner: number; prompt: number }
  | { t: 'release'; owner: number }
  | { t: 'lookup'; prompt: number; max: number };

const owner = fc.integer({ min: 0, max: OWNERS - 1 });
const prompt = fc.nat(4);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  // Sized in blocks (scaled by the block size below), so that admissions fit often enough to
  // evict cached blocks whatever the block size.
  fc.record({ t: fc.constant('admit' as const), owner, prompt, tokens: fc.nat(10), useCache: fc.boolean(), extra: fc.nat(15) }),
  fc.record({ t: fc.constant('grow' as const), owner, prompt, tokens: fc.nat(48), prefill: fc.boolean() }),
  fc.record({ t: fc.constant('decode' as const), owner, prompt }),
  fc.record({ t: fc.constant('release' as const), owner }),
  fc.record({ t: fc.constant('lookup' as const), prompt, max: fc.nat(12) }),
);

/** Prompts over a 2-letter alphabet of block contents, so that common prefixes are frequent. */
const promptsArb = fc.array(fc.array(fc.nat(1), { minLength: 0, maxLength: 10 }), { minLength: 5, maxLength: 5 });

const scenario = fc.record({
  totalBlocks: fc.integer({ min: 1, max: 40 }),
  blockSize: fc.constantFrom(1, 2, 4, 16),
  prompts: promptsArb,
  ops: fc.array(opArb, { maxLength: 150 }),
});

interface Snapshot {
  used: number;
  free: number;
  holds: boolean[];
  tokens: number[];
  blocks: number[];
  cached: number[];
  hits: number;
  misses: number;
  failures: number;
}

function snapshot(kv: KVCache, hashes: number[][]): Snapshot {
  const s = kv.stats();
  return {
    used: kv.usedBlocks,
    free: kv.freeBlocks,
    holds: Array.from({ length: OWNERS }, (_, o) => kv.holds(o)),
    tokens: Array.from({ length: OWNERS }, (_, o) => kv.tokensHeldBy(o)),
    blocks: Array.from({ length: OWNERS }, (_, o) => kv.blocksHeldBy(o)),
    cached: hashes.map((h) => kv.cachedPrefixBlocks(h)),
    hits: s.cacheHits,
    misses: s.cacheMisses,
    failures: s.allocationFailures,
  };
}

function checkInvariants(kv: KVCache, s: Snapshot, bs: number): void {
  kv.checkConsistency();
  // INV-4 through the public counters as well.
  expect(s.used + s.free).toBe(kv.totalBlocks);
  expect(s.used).toBeGreaterThanOrEqual(0);
  expect(s.used).toBeLessThanOrEqual(kv.totalBlocks);
  let sum = 0;
  let max = 0;
  for (let o = 0; o < OWNERS; o++) {
    // Blocks are filled in order: an owner's blocks are exactly those its tokens need.
    expect(s.blocks[o]).toBe(Math.ceil(s.tokens[o] / bs));
    if (!s.holds[o]) expect(s.blocks[o]).toBe(0);
    sum += s.blocks[o];
    max = Math.max(max, s.blocks[o]);
  }
  // Shared prefix blocks count once in `used`; no block is in use without an owner.
  expect(s.used).toBeLessThanOrEqual(sum);
  expect(s.used).toBeGreaterThanOrEqual(max);
  expect(s.hits + s.misses).toBeGreaterThanOrEqual(s.used);
}

/**
 * A failed allocation leaves every owner, counter, block and lookup where it was (the cache
 * checks before it acts; kv-cache-failed-allocation.test.ts also pins the LRU order).
 */
function expectUnchangedButFailure(before: Snapshot, after: Snapshot): void {
  expect(after).toEqual({ ...before, failures: before.failures + 1 });
}

describe('KVCache under random operation sequences', () => {
  it('holds INV-4, allocates all or nothing and never frees twice', () => {
    fc.assert(
      fc.property(scenario, ({ totalBlocks, blockSize: bs, prompts, ops }) => {
        const kv = new KVCache({ totalBlocks, blockSizeTokens: bs });
        const hashes = prompts.map((keys) => {
          const h = new Array<number>(keys.length);
          fillBlockHashes(h, 0, keys.length, ROOT_HASH, (i) => keys[i]);
          return h;
        });
        let s = snapshot(kv, hashes);
        checkInvariants(kv, s, bs);
        const scaled = ops.map((op) => (op.t === 'admit' ? { ...op, tokens: op.tokens * bs + ((op.extra ?? 0) % bs) } : op));
        // Growth (decode tokens, grown prompts) registers block hashes without consulting the index.
        let duplicatesPossible = false;
        for (const op of scaled) {
          const before = s;
          if (op.t === 'decode' || op.t === 'grow') duplicatesPossible = true;
          switch (op.t) {
            case 'admit': {
              if (kv.holds(op.owner)) continue;
              const h = hashes[op.prompt];
              const cached = op.useCache ? kv.cachedPrefixBlocks(h) : 0;
              const ok = kv.allocate(op.owner, op.tokens, h, cached, true);
              s = snapshot(kv, hashes);
              const newBlocks = Math.ceil(op.tokens / bs);
              if (ok) {
                expect(s.tokens[op.owner]).toBe(cached * bs + op.tokens);
                expect(s.hits).toBe(before.hits + cached);
                expect(s.misses).toBe(before.misses + newBlocks);
                // Revived cached blocks may also leave the free list.
                expect(s.used - before.used).toBeGreaterThanOrEqual(newBlocks);
                expect(s.used - before.used).toBeLessThanOrEqual(newBlocks + cached);
                expect(newBlocks).toBeLessThanOrEqual(before.free);
                // The claimed prefix stays cached while it is held, unless growth registered one
                // of its hashes on a second block: evicting the stale copy then drops the hash
                // from the index although a held block carries it (BLIS does the same; seed
                // 775535311 found it: a decode block on a freed block's hash, then an admit).
                if (!duplicatesPossible) expect(kv.cachedPrefixBlocks(h)).toBeGreaterThanOrEqual(cached);
              } else {
                expectUnchangedButFailure(before, s);
                // A failure is real: the new blocks did not fit beside the revived ones.
                expect(newBlocks).toBeGreaterThan(before.free - cached);
              }
              break;
            }
            case 'grow':
            case 'decode': {
              const h = hashes[op.prompt];
              const tokens = op.t === 'grow' ? op.tokens : 1;
              const needed = kv.blocksNeeded(op.owner, tokens);
              const ok = op.t === 'grow' ? kv.allocate(op.owner, tokens, h, 0, op.prefill) : kv.appendToken(op.owner, h);
              s = snapshot(kv, hashes);
              // Growth claims nothing from the cache: it fits exactly when its new blocks do.
              expect(ok).toBe(needed <= before.free);
              if (ok) {
                expect(s.tokens[op.owner]).toBe(before.tokens[op.owner] + tokens);
                expect(s.used).toBe(before.used + needed);
                expect(s.misses).toBe(before.misses + needed);
                expect(s.hits).toBe(before.hits);
              } else {
                expectUnchangedButFailure(before, s);
              }
              break;
            }
            case 'release': {
              if (before.holds[op.owner]) {
                kv.release(op.owner);
                s = snapshot(kv, hashes);
                expect(s.holds[op.owner]).toBe(false);
                expect(s.used).toBeLessThanOrEqual(before.used);
                expect(before.used - s.used).toBeLessThanOrEqual(before.blocks[op.owner]);
                // Freed blocks keep their hashes: nothing cached is forgotten by a release.
                for (let p = 0; p < hashes.length; p++) expect(s.cached[p]).toBe(before.cached[p]);
                // A second release of the same owner is a double free.
                expect(() => kv.release(op.owner)).toThrow(KVCacheError);
              } else {
                expect(() => kv.release(op.owner)).toThrow(KVCacheError);
              }
              s = snapshot(kv, hashes);
              if (!before.holds[op.owner]) expect(s).toEqual(before);
              break;
            }
            case 'lookup': {
              const h = hashes[op.prompt];
              const all = kv.cachedPrefixBlocks(h);
              expect(all).toBeGreaterThanOrEqual(0);
              expect(all).toBeLessThanOrEqual(h.length);
              expect(kv.cachedPrefixBlocks(h, op.max)).toBe(Math.min(all, op.max));
              s = snapshot(kv, hashes);
              expect(s).toEqual(before);
              break;
            }
          }
          checkInvariants(kv, s, bs);
        }
        // Releasing every holder returns every block.
        for (let o = 0; o < OWNERS; o++) if (kv.holds(o)) kv.release(o);
        expect(kv.usedBlocks).toBe(0);
        expect(kv.freeBlocks).toBe(totalBlocks);
        kv.checkConsistency();
      }),
      { numRuns: propertyRuns(400) },
    );
  });
});
