import { describe, expect, it } from 'vitest';
import { GoRandSource } from '../../src/go-rand/go-source.js';
import { RNG_COOKED } from '../../src/go-rand/rng-cooked.js';
import { vectors } from './vectors.js';

describe('GoRandSource matches Go 1.19 rngSource', () => {
  it('copies rngCooked exactly', () => {
    expect(RNG_COOKED.map(String)).toEqual(vectors.tables.rngCooked);
  });

  for (const v of vectors.seeds) {
    it(`seed ${v.seed}: the first 700 Int63 and 50 Uint64`, () => {
      const src = new GoRandSource(BigInt(v.seed));
      expect(v.int63.map(() => String(src.int63()))).toEqual(v.int63);
      const src64 = new GoRandSource(BigInt(v.seed));
      expect(v.uint64.map(() => String(src64.uint64()))).toEqual(v.uint64);
    });
  }

  it('takes a number seed as the same int64, negatives included', () => {
    for (const seed of [0, 1, 42, -1, -42, 7919, 2147483647, 2147483648, 123456789012345, -Number.MAX_SAFE_INTEGER]) {
      const a = new GoRandSource(seed);
      const b = new GoRandSource(BigInt(seed));
      for (let i = 0; i < 650; i++) expect(a.int63()).toBe(b.int63());
    }
  });

  it('reduces seeds modulo 2^31-1 like Go, with 0 standing in for 89482311', () => {
    const first = (seed: bigint) => new GoRandSource(seed).int63();
    expect(first(2147483647n)).toBe(first(0n));
    expect(first(89482311n)).toBe(first(0n));
    expect(first(2147483648n)).toBe(first(1n));
    expect(first(-1n)).toBe(first(2147483646n));
  });

  it('seed() restarts the stream', () => {
    const src = new GoRandSource(5);
    const firsts = [src.int63(), src.int63()];
    src.seed(5);
    expect([src.int63(), src.int63()]).toEqual(firsts);
  });

  it('rejects seeds that are not an int64', () => {
    expect(() => new GoRandSource(2n ** 63n)).toThrow(RangeError);
    expect(() => new GoRandSource(-(2n ** 63n) - 1n)).toThrow(RangeError);
    expect(() => new GoRandSource(2 ** 60)).toThrow(RangeError);
    expect(() => new GoRandSource(1.5)).toThrow(RangeError);
  });
});
