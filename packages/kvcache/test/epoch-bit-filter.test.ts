import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EpochBitFilter } from '../src/epoch-bit-filter.js';
import { mixOf } from '../src/hash-mix.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// The filter a delayed prefix view asks before looking a hash up: it may say yes for a mix never
// added (that only costs work), never no for one added since the last clear (that would answer
// a changed hash as unchanged).

type Op = { t: 'add'; m: number } | { t: 'clear' } | { t: 'ask'; m: number };

const mixArb = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.nat(4096));
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ t: fc.constant('add' as const), m: mixArb }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('clear' as const) }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('ask' as const), m: mixArb }) },
);

describe('EpochBitFilter', () => {
  it('holds every mix added since the last clear, and nothing right after one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2048 }), fc.array(opArb, { maxLength: 2000 }), (minBits, ops) => {
        const filter = new EpochBitFilter(minBits);
        const members = new Set<number>();
        for (const op of ops) {
          if (op.t === 'add') {
            filter.add(op.m);
            members.add(op.m);
          } else if (op.t === 'clear') {
            const before = [...members];
            filter.clear();
            members.clear();
            for (const m of before) expect(filter.mayHold(m)).toBe(false);
          } else if (members.has(op.m)) {
            expect(filter.mayHold(op.m)).toBe(true);
          }
        }
        for (const m of members) expect(filter.mayHold(m)).toBe(true);
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('grows after a crowded epoch, so that few mixes never added read as held', () => {
    const filter = new EpochBitFilter(1024);
    const added = Array.from({ length: 4000 }, (_, i) => mixOf(i * 7919 + 1));
    const others = Array.from({ length: 4000 }, (_, i) => mixOf(1e9 + i * 104729));
    for (const m of added) filter.add(m);
    // 4000 mixes in 1024 bits: nearly every bit set.
    expect(others.filter((m) => filter.mayHold(m)).length).toBeGreaterThan(3000);
    filter.clear();
    for (const m of added) filter.add(m);
    for (const m of added) expect(filter.mayHold(m)).toBe(true);
    expect(others.filter((m) => filter.mayHold(m)).length).toBeLessThan(400);
  });
});
