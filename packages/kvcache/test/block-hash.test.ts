import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainHash, chainStreamHashes, contentKey, hashString } from '../src/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

/** The chain block by block through chainHash, the definition chainStreamHashes must equal. */
function reference(count: number, prevHash: number, streamKey: number, first: number): number[] {
  const out: number[] = [];
  let h = prevHash;
  for (let i = 0; i < count; i++) {
    h = chainHash(h, contentKey(streamKey, first + i));
    out.push(h);
  }
  return out;
}

describe('chainStreamHashes', () => {
  it('equals chaining contentKey(streamKey, j) through chainHash', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 40 }),
        fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2 ** 52 - 1 })),
        fc.oneof(fc.integer({ min: 0, max: 0xffffffff }), fc.string().map(hashString)),
        fc.oneof(fc.nat({ max: 1000 }), fc.integer({ min: 0, max: 0xffffffff - 40 })),
        (count, prevHash, streamKey, first) => {
          const out = new Float64Array(count + 2);
          const last = chainStreamHashes(out, 1, count, prevHash, streamKey, first);
          const want = reference(count, prevHash, streamKey, first);
          expect(Array.from(out.subarray(1, count + 1))).toEqual(want);
          expect(out[0]).toBe(0);
          expect(out[count + 1]).toBe(0);
          expect(last).toBe(count === 0 ? prevHash : want[count - 1]);
        },
      ),
      { numRuns: propertyRuns(500) },
    );
  });

  it('continues a chain: two calls give the hashes of one', () => {
    const key = hashString('request:7');
    const whole = new Float64Array(9);
    chainStreamHashes(whole, 0, 9, 0, key, 0);
    const split = new Float64Array(9);
    const h = chainStreamHashes(split, 0, 4, 0, key, 0);
    chainStreamHashes(split, 4, 5, h, key, 4);
    expect(split).toEqual(whole);
  });

  it('fills a plain array too', () => {
    const out: number[] = [];
    chainStreamHashes(out, 0, 3, 0, 5, 0);
    expect(out).toEqual(reference(3, 0, 5, 0));
  });
});
