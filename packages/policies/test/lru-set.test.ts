import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyOf, LruSet } from '../src/scorers/lru-set.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

/**
 * The semantics LruSet must keep, written the obvious way: entries from least to most recent,
 * identified by `keyOf(hash)`, the stored hash replaced when another hash with the key is
 * touched, `has` needing the exact hash.
 */
class ModelLruSet {
  readonly entries: { key: number; hash: number }[] = [];
  constructor(private readonly capacity: number) {}
  has(hash: number): boolean {
    const e = this.entries.find((x) => x.key === keyOf(hash));
    return e !== undefined && e.hash === hash;
  }
  touch(hash: number): void {
    const key = keyOf(hash);
    const at = this.entries.findIndex((x) => x.key === key);
    if (at >= 0) this.entries.splice(at, 1);
    else if (this.entries.length === this.capacity) this.entries.shift();
    this.entries.push({ key, hash });
  }
}

// Few distinct keys so runs, wrap-around and eviction all happen; each key comes in variants
// that share its low 30 (or 32) bits, plus values a block hash never is but an ArrayLike<number>
// may hold.
const variantOf = (k: number, v: number) =>
  [k, k + 2 ** 30, k + 3 * 2 ** 32, k + 2 ** 40, -1 - k, k + 0.5][v];
const hashArb = fc.oneof(
  { weight: 20, arbitrary: fc.tuple(fc.nat(40), fc.nat(5)).map(([k, v]) => variantOf(k, v)) },
  { weight: 1, arbitrary: fc.constantFrom(Number.NaN, -0, 0, 2 ** 52 - 1, 2 ** 31, -(2 ** 31)) },
);
// Sets of 1 to 33 entries in tables of 2 to 128 buckets: wrap-around and runs of every length.
const capacityArb = fc.constantFrom(1, 2, 3, 4, 7, 8, 16, 33);
const opArb = fc.record({ touch: fc.boolean(), hash: hashArb });

function expectSame(set: LruSet, model: ModelLruSet): void {
  expect(set.size).toBe(model.entries.length);
  expect(set.toArray()).toEqual(model.entries.map((e) => e.hash));
}

describe('LruSet', () => {
  it('behaves like the reference model under any touch/has sequence', () => {
    fc.assert(
      // initialRoom 1 grows the records and the table on the way to the capacity; 256 never does here.
      fc.property(capacityArb, fc.constantFrom(1, 256), fc.array(opArb, { maxLength: 400 }), (capacity, initialRoom, ops) => {
        const set = new LruSet(capacity, initialRoom);
        const model = new ModelLruSet(capacity);
        for (const op of ops) {
          if (op.touch) {
            set.touch(op.hash);
            model.touch(op.hash);
          } else {
            expect(set.has(op.hash)).toBe(model.has(op.hash));
          }
        }
        expectSame(set, model);
        for (const e of model.entries) expect(set.has(e.hash)).toBe(model.has(e.hash));
      }),
      { numRuns: propertyRuns(400) },
    );
  });

  it('matches the model over a long run of realistic 52-bit hashes at a larger capacity', () => {
    let s = 7;
    const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0);
    // 3,000 distinct hashes through 1,000 entries: steady eviction, frequent re-touches.
    const pool = Array.from({ length: 3000 }, () => (next() & 0xfffff) * 2 ** 32 + next());
    const set = new LruSet(1000);
    const model = new ModelLruSet(1000);
    for (let i = 0; i < 30_000; i++) {
      const h = pool[next() % pool.length];
      if (next() % 4 === 0) expect(set.has(h)).toBe(model.has(h));
      else {
        set.touch(h);
        model.touch(h);
      }
    }
    expectSame(set, model);
  });

  it('keeps working when every key lands in one run of the table', () => {
    // Keys 0, 2^k, 2 * 2^k, ...: Fibonacci hashing spreads them, but eviction and re-insertion of
    // a full set still exercises the deletion shift at every position.
    const set = new LruSet(5);
    const model = new ModelLruSet(5);
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 7; i++) {
        const h = ((round * 7 + i) % 11) * 2 ** 20;
        set.touch(h);
        model.touch(h);
      }
      expectSame(set, model);
    }
  });

  it('rejects a capacity that is not a positive integer', () => {
    expect(() => new LruSet(0)).toThrow(RangeError);
    expect(() => new LruSet(1.5)).toThrow(RangeError);
  });
});
