import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HashIndex } from '../src/hash-index.js';

// The prefix cache's open-addressing table against a Map. Hashes are drawn from a small pool
// that shares low bits, so probe runs, wrap-around and backward-shift deletion all happen.

const pool = (() => {
  const out: number[] = [];
  for (let i = 0; i < 24; i++) out.push(i * 4294967296 * 7 + (i % 3), (i + 1) * 1024, 2 ** 52 - 1 - i * 65536);
  return out;
})();

type Op = { t: 'set'; h: number; b: number } | { t: 'del'; h: number; b: number; any: boolean } | { t: 'get'; h: number };

const hashArb = fc.constantFrom(...pool);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('set' as const), h: hashArb, b: fc.nat(50) }),
  fc.record({ t: fc.constant('del' as const), h: hashArb, b: fc.nat(50), any: fc.boolean() }),
  fc.record({ t: fc.constant('get' as const), h: hashArb }),
);

describe('HashIndex', () => {
  it('behaves like a Map under random set / delete / get', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(opArb, { maxLength: 300 }), (capacity, ops) => {
        const idx = new HashIndex(capacity);
        const model = new Map<number, number>();
        for (const op of ops) {
          if (op.t === 'set') {
            // The cache never holds more hashes than blocks.
            if (!model.has(op.h) && model.size >= capacity) continue;
            idx.set(op.h, op.b);
            model.set(op.h, op.b);
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
        }
      }),
    );
  });

  it('replaces the block of a hash that is set again', () => {
    const idx = new HashIndex(4);
    idx.set(12345, 1);
    idx.set(12345, 2);
    expect(idx.size).toBe(1);
    expect(idx.get(12345)).toBe(2);
    idx.delete(12345, 1);
    expect(idx.get(12345)).toBe(2);
    idx.delete(12345, 2);
    expect(idx.get(12345)).toBe(-1);
    expect(idx.size).toBe(0);
  });
});
