import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockStore } from '../src/block-store.js';
import { HashIndex } from '../src/hash-index.js';

// The prefix cache's open-addressing table against a Map. Hashes are drawn from a small pool
// that shares low bits, so probe runs, wrap-around and backward-shift deletion all happen.
// The table keys each entry by the hash its block carries, so, as in the cache, a block takes
// a hash just before it is registered, and only while no entry points at it.

const pool = (() => {
  const out: number[] = [];
  for (let i = 0; i < 24; i++) out.push(i * 4294967296 * 7 + (i % 3), (i + 1) * 1024, 2 ** 52 - 1 - i * 65536);
  return out;
})();

type Op = { t: 'set'; h: number; b: number } | { t: 'del'; h: number; b: number; any: boolean } | { t: 'get'; h: number } | { t: 'evict'; b: number };

const hashArb = fc.constantFrom(...pool);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('set' as const), h: hashArb, b: fc.nat(50) }),
  fc.record({ t: fc.constant('del' as const), h: hashArb, b: fc.nat(50), any: fc.boolean() }),
  fc.record({ t: fc.constant('get' as const), h: hashArb }),
  fc.record({ t: fc.constant('evict' as const), b: fc.nat(50) }),
);

describe('HashIndex', () => {
  it('behaves like a Map under random set / delete / get', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(opArb, { maxLength: 300 }), (capacity, ops) => {
        const store = new BlockStore(51);
        const idx = new HashIndex(store, capacity);
        const model = new Map<number, number>();
        const indexed = (b: number) => [...model.values()].includes(b);
        for (const op of ops) {
          if (op.t === 'set') {
            // The cache never holds more hashes than blocks, nor re-hashes a registered block.
            if (!model.has(op.h) && model.size >= capacity) continue;
            if (indexed(op.b) && model.get(op.h) !== op.b) continue;
            store.setHash(op.b, op.h);
            idx.set(op.h, op.b);
            model.set(op.h, op.b);
          } else if (op.t === 'evict') {
            // The cache reusing a block: the hash it carries leaves the index, wherever it maps.
            const h = store.hashOf(op.b);
            if (h === -1) continue;
            idx.evict(op.b, h);
            store.setHash(op.b, -1);
            model.delete(h);
          } else if (op.t === 'del') {
            if (op.any) {
              idx.delete(op.h);
              model.delete(op.h);
            } else {
              idx.delete(op.h, op.b);
              if (model.get(op.h) === op.b) model.delete(op.h);
            }
          }
          expect(idx.size).toBe(model.size);
          for (const h of pool) expect(idx.get(h)).toBe(model.get(h) ?? -1);
          const entries: [number, number][] = [];
          idx.forEach((h, blk) => {
            entries.push([h, blk]);
          });
          expect(entries.sort((x, y) => x[0] - y[0])).toEqual([...model].sort((x, y) => x[0] - y[0]));
        }
      }),
    );
  });

  it('replaces the block of a hash that is set again', () => {
    const store = new BlockStore(4);
    const idx = new HashIndex(store);
    store.setHash(1, 12345);
    idx.set(12345, 1);
    store.setHash(2, 12345);
    idx.set(12345, 2);
    expect(idx.size).toBe(1);
    expect(idx.get(12345)).toBe(2);
    idx.delete(12345, 1);
    expect(idx.get(12345)).toBe(2);
    idx.delete(12345, 2);
    expect(idx.get(12345)).toBe(-1);
    expect(idx.size).toBe(0);
  });

  it('grows instead of looping when more entries arrive than it was sized for', () => {
    const store = new BlockStore(100);
    const idx = new HashIndex(store, 2);
    for (let b = 0; b < 100; b++) {
      store.setHash(b, b * 4294967296 + 7);
      idx.set(b * 4294967296 + 7, b);
    }
    expect(idx.size).toBe(100);
    for (let b = 0; b < 100; b++) expect(idx.get(b * 4294967296 + 7)).toBe(b);
  });
});
