import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockStore } from '../src/block-store.js';
import { HashIndex } from '../src/hash-index.js';
import { DelayedPrefixSignal } from '../src/prefix-signal.js';
import { PriorStateTable } from '../src/prior-state-table.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// The delayed view of a hash set, against the naive one it replaces: a copy of the set taken at
// each epoch start (a journal replayed up to the refresh). Hashes come from a small pool that
// shares low bits, so probe runs and wrap-around happen, and tables start small so they grow
// in mid-epoch.

const pool = (() => {
  const out: number[] = [];
  for (let i = 0; i < 20; i++) out.push(i * 4294967296 * 5 + (i % 4), (i + 1) * 2048, 2 ** 53 - 1 - i * 131072, i);
  return out;
})();

type Op = { t: 'toggle'; h: number } | { t: 'advance' } | { t: 'read'; h: number };

const hashArb = fc.constantFrom(...pool);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ t: fc.constant('toggle' as const), h: hashArb }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('advance' as const) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('read' as const), h: hashArb }) },
);

describe('PriorStateTable', () => {
  it('answers, for each hash changed since the epoch began, whether the set held it then', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 16 }), fc.array(opArb, { maxLength: 400 }), (minSlots, ops) => {
        const table = new PriorStateTable(minSlots);
        const live = new Set<number>();
        let atStart = new Set<number>();
        const touched = new Set<number>();
        const expected = (h: number) => (touched.has(h) ? (atStart.has(h) ? 1 : 0) : -1);
        for (const op of ops) {
          if (op.t === 'toggle') {
            if (live.has(op.h)) {
              live.delete(op.h);
              table.removed(op.h);
            } else {
              live.add(op.h);
              table.added(op.h);
            }
            touched.add(op.h);
          } else if (op.t === 'advance') {
            table.advance();
            atStart = new Set(live);
            touched.clear();
          } else {
            // Changes are recorded when first looked at: several may pile up before a read.
            expect(table.lookup(op.h)).toBe(expected(op.h));
            expect(table.size).toBe(touched.size);
          }
        }
        expect(table.size).toBe(touched.size);
        for (const h of pool) expect(table.lookup(h)).toBe(expected(h));
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});

describe('DelayedPrefixSignal over a HashIndex', () => {
  it('equals a copy of the index taken at each refresh, whatever the index did since', () => {
    const blocks = pool.length;
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 400 }), (ops) => {
        const store = new BlockStore(blocks);
        const index = new HashIndex(store, 8);
        const signal = new DelayedPrefixSignal(index);
        const naive = new Set<number>();
        let seen = new Set<number>();
        for (const op of ops) {
          const b = pool.indexOf((op as { h: number }).h);
          if (op.t === 'toggle') {
            // One block per hash, as the cache keeps it: a block takes its hash just before it is registered.
            if (naive.has(op.h)) {
              index.delete(op.h, b);
              store.setHash(b, -1);
              naive.delete(op.h);
            } else {
              store.setHash(b, op.h);
              index.set(op.h, b);
              naive.add(op.h);
            }
          } else if (op.t === 'advance') {
            signal.refresh();
            seen = new Set(naive);
          } else {
            expect(signal.cachedPrefixBlocks([op.h])).toBe(seen.has(op.h) ? 1 : 0);
          }
        }
        // Leading runs: the view stops at the first hash it did not hold.
        const run = pool.findIndex((h) => !seen.has(h));
        expect(signal.cachedPrefixBlocks(pool)).toBe(run === -1 ? pool.length : run);
        expect(signal.cachedPrefixBlocks(pool, 3)).toBe(Math.min(3, run === -1 ? pool.length : run));
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
