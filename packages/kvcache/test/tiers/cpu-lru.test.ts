import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CpuLru } from '../../src/tiers/cpu-lru.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

// The run-splicing LRU must stand for exactly the order a plain move-to-tail list would have,
// after every operation: BLIS's eviction order depends on it.

class ReferenceLru {
  order: number[] = [];
  evictions = 0;
  constructor(private readonly capacity: number) {}
  touch(hash: number): void {
    this.order.splice(this.order.indexOf(hash), 1);
    this.order.push(hash);
  }
  store(hash: number): void {
    if (this.order.length === this.capacity) {
      this.order.shift();
      this.evictions++;
    }
    this.order.push(hash);
  }
}

type Op = { t: 'touch' | 'store'; key: number } | { t: 'walk'; keys: number[] } | { t: 'settle' };

const key = fc.nat(11);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constantFrom('touch' as const, 'store' as const), key }),
  // A mirror-like walk: touch-or-store over a key sequence, the pattern the run optimises.
  fc.record({ t: fc.constant('walk' as const), keys: fc.array(key, { maxLength: 14 }) }),
  fc.record({ t: fc.constant('settle' as const) }),
);

describe('CpuLru', () => {
  it('keeps the order of a move-to-tail list after every operation (fast-check)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(opArb, { maxLength: 120 }), (capacity, ops) => {
        const lru = new CpuLru(capacity);
        const ref = new ReferenceLru(capacity);
        const touchOrStore = (k: number) => {
          const slot = lru.find(k);
          if (slot >= 0) {
            lru.touch(slot);
            ref.touch(k);
          } else {
            lru.store(k);
            ref.store(k);
          }
        };
        for (const op of ops) {
          if (op.t === 'walk') for (const k of op.keys) touchOrStore(k);
          else if (op.t === 'settle') lru.settle();
          else if (op.t === 'touch') {
            const slot = lru.find(op.key);
            if (slot >= 0) {
              lru.touch(slot);
              ref.touch(op.key);
            }
          } else touchOrStore(op.key);
          expect(lru.order()).toEqual(ref.order);
          expect(lru.evictions).toBe(ref.evictions);
          lru.checkConsistency();
        }
      }),
      { numRuns: propertyRuns(400), verbose: true },
    );
  });

  it('touching the sequence it already ends with changes nothing (the steady-state mirror)', () => {
    const lru = new CpuLru(6);
    for (const k of [1, 2, 3, 4, 5]) lru.store(k);
    for (const k of [3, 4, 5]) lru.touch(lru.find(k));
    expect(lru.order()).toEqual([1, 2, 3, 4, 5]);
    for (const k of [2, 4]) lru.touch(lru.find(k));
    expect(lru.order()).toEqual([1, 3, 5, 2, 4]);
  });

  it('evicts the least recently used entry, counting it', () => {
    const lru = new CpuLru(2);
    lru.store(10);
    lru.store(11);
    lru.touch(lru.find(10));
    lru.store(12);
    expect(lru.order()).toEqual([10, 12]);
    expect(lru.find(11)).toBe(-1);
    expect(lru.evictions).toBe(1);
  });
});
