import { describe, expect, it } from 'vitest';
import { GoRand } from '../../src/go-rand/go-rand.js';
import { ScriptedSource } from './scripted-source.js';
import { floatMismatches, vectors } from './vectors.js';

const fresh = (seed: string) => GoRand.fromSeed(BigInt(seed));

/** Round-robin draws, one per n per round, as gen-vectors.go interleaves them. */
function interleaved<N>(count: number, ns: N[], draw: (n: N) => number | bigint): string[] {
  return Array.from({ length: count }, (_, k) => String(draw(ns[k % ns.length])));
}

describe('GoRand matches Go 1.19 math/rand.Rand', () => {
  for (const v of vectors.seeds) {
    describe(`seed ${v.seed}`, () => {
      it('Uint32, Int31 and Float64', () => {
        const a = fresh(v.seed);
        expect(v.uint32.map(() => a.uint32())).toEqual(v.uint32);
        const b = fresh(v.seed);
        expect(v.int31.map(() => b.int31())).toEqual(v.int31);
        const c = fresh(v.seed);
        expect(floatMismatches(v.float64, () => c.float64())).toEqual([]);
      });

      it('Intn, n up to 2^31-1 (Int31n path) and beyond (Int63n path)', () => {
        const a = fresh(v.seed);
        expect(interleaved(v.intn.length, vectors.intnNs, (n) => a.intn(n))).toEqual(v.intn.map(String));
        const b = fresh(v.seed);
        expect(interleaved(v.intnLarge.length, vectors.intnLargeNs, (n) => b.intn(n))).toEqual(v.intnLarge.map(String));
      });

      it('Int31n and Int63n, including rejection-heavy n', () => {
        const a = fresh(v.seed);
        expect(v.int31n.map(() => a.int31n(1 << 20))).toEqual(v.int31n);
        const b = fresh(v.seed);
        expect(v.int31nReject.map(() => b.int31n(2 ** 30 + 1))).toEqual(v.int31nReject);
        const c = fresh(v.seed);
        expect(v.int63n.map(() => String(c.int63n(10n ** 15n)))).toEqual(v.int63n);
        const d = fresh(v.seed);
        const ns = vectors.int63nExtraNs.map(BigInt);
        expect(interleaved(v.int63nExtra.length, ns, (n) => d.int63n(n))).toEqual(v.int63nExtra);
      });

      it('Perm and Shuffle', () => {
        expect(fresh(v.seed).perm(v.perm.length)).toEqual(v.perm);
        const deck = Array.from({ length: v.shuffle.length }, (_, i) => i);
        fresh(v.seed).shuffle(deck.length, (i, j) => {
          [deck[i], deck[j]] = [deck[j], deck[i]];
        });
        expect(deck).toEqual(v.shuffle);
      });
    });
  }

  it('Intn, Int31n and Int63n reject what Go panics on', () => {
    const r = GoRand.fromSeed(1);
    for (const n of [0, -3, 1.5, Number.NaN, 2 ** 53]) expect(() => r.intn(n)).toThrow(RangeError);
    for (const n of [0, 2 ** 31]) expect(() => r.int31n(n)).toThrow(RangeError);
    for (const n of [0n, 2n ** 63n]) expect(() => r.int63n(n)).toThrow(RangeError);
    expect(() => r.shuffle(-1, () => {})).toThrow(RangeError);
  });

  it('seeds a child generator from its own Int63, as BLIS does per client', () => {
    const parent = GoRand.fromSeed(42);
    const child = GoRand.fromSeed(parent.int63());
    expect(child.int63()).toBe(GoRand.fromSeed(3440579354231278675n).int63());
  });

  it('Int31n and Int63n keep a draw equal to the largest full multiple of n and redraw above it', () => {
    // n = 2^30+1: Go's max is 2^30; n = 2^62+1: max is 2^62. One draw above max, then max itself.
    const r31 = new GoRand(new ScriptedSource([[2 ** 30 + 1, 0], [2 ** 30, 0]]));
    expect(r31.int31n(2 ** 30 + 1)).toBe(2 ** 30);
    const r63 = new GoRand(new ScriptedSource([[0x40000000, 1], [0x40000000, 0]]));
    expect(r63.int63n(2n ** 62n + 1n)).toBe(2n ** 62n);
  });

  it('Float64 draws again when Int63 / 2^63 rounds up to 1, as Go does', () => {
    const r = new GoRand(new ScriptedSource([[0x7fffffff, 0xffffffff], [0xffffffff, 0xfffffe00], [0x40000000, 0]]));
    expect(r.float64()).toBe(0.5);
    const r2 = new GoRand(new ScriptedSource([[0xffffffff, 0xfffffdff]]));
    expect(r2.float64()).toBe(1 - 2 ** -53);
  });

  it("Shuffle's multiply-shift draw is exact where the 64-bit product is not a double", () => {
    // Go's unexported int31n, line for line in BigInt: the reference for the first swap.
    const goInt31n = (draws: number[], n: number): number => {
      const big = BigInt(n);
      let k = 0;
      let prod = BigInt(draws[k++]) * big;
      let low = prod & 0xffffffffn;
      if (low < big) {
        const thresh = (2n ** 32n - big) % big;
        while (low < thresh) {
          prod = BigInt(draws[k++]) * big;
          low = prod & 0xffffffffn;
        }
      }
      return Number(prod >> 32n);
    };
    const stop = new Error('first swap seen');
    // The inverse of odd n modulo 2^32 (Newton's iteration doubles the correct bits each time).
    const inverse32 = (n: number): bigint => {
      let x = BigInt(n);
      for (let k = 0; k < 5; k++) x = BigInt.asUintN(32, x * (2n - BigInt(n) * x));
      return x;
    };
    const gen = GoRand.fromSeed(2024);
    for (let k = 0; k < 5000; k++) {
      const n = 2 + gen.int31n(2147483646);
      // A third of the cases draw v at random; a third make v·n land 1..500 below a multiple of
      // 2^32, where the product rounded to a double floors one too high; a third put the low half
      // exactly on Lemire's threshold, the last accepted value.
      const kind = k % 3;
      const m = kind === 0 ? n : n | 1;
      const thresh = (2 ** 32 - m) % m;
      const lowHalf = kind === 1 ? -BigInt(1 + gen.int31n(500)) : BigInt(thresh);
      const v = kind === 0 ? gen.uint32() : Number(BigInt.asUintN(32, lowHalf * inverse32(m)));
      const draws = [v >>> 0, ...Array.from({ length: 40 }, () => gen.uint32())];
      let first = -1;
      try {
        new GoRand(new ScriptedSource(draws.map(ScriptedSource.uint32Word))).shuffle(m, (_i, j) => {
          first = j;
          throw stop;
        });
      } catch (e) {
        if (e !== stop) throw e;
      }
      expect.soft(`${v} x ${m}: ${first}`).toBe(`${v} x ${m}: ${goInt31n(draws, m)}`);
    }
  });
});
