import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KVCache, type KVCacheSnapshot, ROOT_HASH, fillBlockHashes } from '../src/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// Issue #13, rule 2: an allocation that does not fit changes nothing, the LRU free order
// included (vLLM's allocate_slots and BLIS's AllocateKVBlocks check before they act). Claiming
// a stuck request's cached blocks and handing them back would refresh them at every attempt.

const OWNERS = 5;
const ALL_OWNERS = Array.from({ length: OWNERS }, (_, o) => o);

type Op =
  | { t: 'admit'; owner: number; prompt: number; tokens: number }
  | { t: 'grow'; owner: number; prompt: number; tokens: number; prefill: boolean }
  | { t: 'decode'; owner: number; prompt: number }
  | { t: 'release'; owner: number };

const owner = fc.integer({ min: 0, max: OWNERS - 1 });
const prompt = fc.nat(3);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  // Admissions always use the cache: failures with cached claims are the case under test.
  { weight: 3, arbitrary: fc.record({ t: fc.constant('admit' as const), owner, prompt, tokens: fc.nat(64) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('grow' as const), owner, prompt, tokens: fc.nat(24), prefill: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('decode' as const), owner, prompt }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('release' as const), owner }) },
);

const scenario = fc.record({
  totalBlocks: fc.integer({ min: 2, max: 16 }),
  blockSize: fc.constantFrom(1, 2, 4),
  // Prompts over a 2-letter alphabet of block contents, so that they share prefixes often.
  prompts: fc.array(fc.array(fc.nat(1), { minLength: 1, maxLength: 8 }), { minLength: 4, maxLength: 4 }),
  ops: fc.array(opArb, { maxLength: 120 }),
});

/** Runs one operation; returns whether it was an allocation that failed. */
function apply(kv: KVCache, op: Op, hashes: number[][]): boolean {
  switch (op.t) {
    case 'admit': {
      if (kv.holds(op.owner)) return false;
      const h = hashes[op.prompt];
      return !kv.allocate(op.owner, op.tokens, h, kv.cachedPrefixBlocks(h), true);
    }
    case 'grow':
      if (!kv.holds(op.owner)) return false;
      return !kv.allocate(op.owner, op.tokens, hashes[op.prompt], 0, op.prefill);
    case 'decode':
      if (!kv.holds(op.owner)) return false;
      return !kv.appendToken(op.owner, hashes[op.prompt]);
    case 'release':
      if (kv.holds(op.owner)) kv.release(op.owner);
      return false;
  }
}

function withoutFailures(s: KVCacheSnapshot): KVCacheSnapshot {
  return { ...s, stats: { ...s.stats, allocationFailures: 0 } };
}

describe('a failed allocation (fast-check)', () => {
  it('leaves the whole cache as it was: free order, prefix index, owners and counters', () => {
    const params = { numRuns: propertyRuns(500), seed: Date.now() | 0 };
    const failures = { seen: 0 };
    try {
      fc.assert(
        fc.property(scenario, ({ totalBlocks, blockSize, prompts, ops }) => {
          const hashes = prompts.map((keys) => {
            const h = new Array<number>(keys.length);
            fillBlockHashes(h, 0, keys.length, ROOT_HASH, (i) => keys[i]);
            return h;
          });
          const kv = new KVCache({ totalBlocks, blockSizeTokens: blockSize });
          // A shadow cache that never sees the failed calls must stay indistinguishable, so a
          // failure cannot even leave a trace that only later allocations would reveal.
          const shadow = new KVCache({ totalBlocks, blockSizeTokens: blockSize });
          for (const op of ops) {
            const before = kv.snapshot(ALL_OWNERS);
            const failed = apply(kv, op, hashes);
            const after = kv.snapshot(ALL_OWNERS);
            if (failed) {
              failures.seen++;
              expect(after.stats.allocationFailures).toBe(before.stats.allocationFailures + 1);
              expect(withoutFailures(after)).toEqual(withoutFailures(before));
            } else {
              expect(apply(shadow, op, hashes)).toBe(false);
            }
            expect(withoutFailures(shadow.snapshot(ALL_OWNERS))).toEqual(withoutFailures(after));
            kv.checkConsistency();
          }
        }),
        params,
      );
    } catch (e) {
      console.error(`kv-cache-failed-allocation: fast-check seed ${params.seed}`);
      throw e;
    }
    // The generator must actually produce failures for the property to say anything.
    expect(failures.seen).toBeGreaterThan(100);
  });
});

/** Hierarchical hashes of blocks whose contents are `keys`. */
function chain(keys: readonly number[]): number[] {
  const out = new Array<number>(keys.length);
  fillBlockHashes(out, 0, keys.length, ROOT_HASH, (i) => keys[i]);
  return out;
}

describe('a failed allocation (example)', () => {
  it("lets the stuck request's cached blocks age out in LRU order", () => {
    // 5 blocks of 4 tokens. P (blocks 0, 1) and Q (block 2) are prefilled and freed, P first:
    // the free order is then [3, 4, 1, 0, 2]. R takes 3 and 4: free [1, 0, 2].
    const kv = new KVCache({ totalBlocks: 5, blockSizeTokens: 4 });
    const p = chain([1, 2]);
    const q = chain([3]);
    expect(kv.allocate(0, 8, p, 0, true)).toBe(true);
    expect(kv.allocate(1, 4, q, 0, true)).toBe(true);
    kv.release(0);
    kv.release(1);
    expect(kv.allocate(2, 8, chain([5, 6]), 0, true)).toBe(true);
    expect(kv.snapshot().freeOrder).toEqual([1, 0, 2]);

    // S = P + 8 new tokens: 2 cached blocks (both free) + 2 new = 4 needed, 3 free. The old
    // rollback claimed blocks 0 and 1 first, took block 2, failed, and put 1 and 0 back at the
    // tail: [2, 1, 0]. Nothing may move.
    const s = chain([1, 2, 7, 8]);
    const before = kv.snapshot([0, 1, 2, 3]);
    expect(kv.allocate(3, 8, s, kv.cachedPrefixBlocks(s), true)).toBe(false);
    expect(withoutFailures(kv.snapshot([0, 1, 2, 3]))).toEqual(withoutFailures(before));
    expect(kv.snapshot().freeOrder).toEqual([1, 0, 2]);

    // So the next block taken is P's last one (as in vLLM and BLIS), not Q's.
    expect(kv.allocate(4, 4, chain([9]), 0, true)).toBe(true);
    expect(kv.cachedPrefixBlocks(p)).toBe(1);
    expect(kv.cachedPrefixBlocks(q)).toBe(1);
    kv.checkConsistency();
  });

  it('fails on the cached blocks it would take from the free list, not only on the new ones', () => {
    // 4 blocks of 4 tokens; P (2 blocks) freed; another owner holds 1 block. Admitting P + 4
    // tokens needs 2 cached-but-free blocks + 1 new = 3 = free: fits exactly. P + 8 needs 4: no.
    const kv = new KVCache({ totalBlocks: 4, blockSizeTokens: 4 });
    const p = chain([1, 2]);
    expect(kv.allocate(0, 8, p, 0, true)).toBe(true);
    kv.release(0);
    expect(kv.allocate(1, 4, chain([3]), 0, true)).toBe(true);
    expect(kv.allocate(2, 8, chain([1, 2, 4, 5]), 2, true)).toBe(false);
    expect(kv.stats().cacheHits).toBe(0);
    expect(kv.allocate(2, 4, chain([1, 2, 4]), 2, true)).toBe(true);
    expect(kv.freeBlocks).toBe(0);
    expect(kv.stats()).toEqual({ cacheHits: 2, cacheMisses: 4, allocationFailures: 1 });
  });
});
