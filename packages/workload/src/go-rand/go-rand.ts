import { expFloat64 } from './exp-float64.js';
import { type GoSeed, GoRandSource } from './go-source.js';
import { normFloat64 } from './norm-float64.js';

// Go's math/rand (v1) `Rand` over its own seeded source: the same method for method derivations
// from the 64-bit stream, so that `GoRand.fromSeed(s)` and Go's `rand.New(rand.NewSource(s))`
// draw the same values in the same order. Each method consumes exactly the words Go's does
// (rejection loops included), because one extra or missing draw shifts every later value.

const INT31_MAX = 2147483647;
const TWO_31 = 2147483648;
const TWO_32 = 4294967296;
const TWO_63_FLOAT = 2 ** 63;
const INT63_MAX = 2n ** 63n - 1n;
const TWO_63 = 2n ** 63n;

function checkInt31(n: number, method: string): void {
  if (!Number.isInteger(n) || n <= 0 || n > INT31_MAX) throw new RangeError(`GoRand.${method}: n must be an integer in [1, 2^31-1], got ${n}`);
}

/** Go's `*rand.Rand` with a `rand.NewSource` source. Not safe to share between concurrent users. */
export class GoRand {
  constructor(readonly source: GoRandSource) {}

  /** Go's `rand.New(rand.NewSource(seed))`. */
  static fromSeed(seed: GoSeed): GoRand {
    return new GoRand(new GoRandSource(seed));
  }

  /** A generator in this one's exact state, drawing the same values from here on. */
  clone(): GoRand {
    return new GoRand(this.source.clone());
  }

  /** Go's `Seed`: restarts the stream as `fromSeed(seed)` would. */
  seed(seed: GoSeed): void {
    this.source.seed(seed);
  }

  /**
   * Go's `Int63`, in [0, 2^63). A bigint because most values exceed 2^53; BLIS draws these as
   * seeds for further generators, which `fromSeed` accepts as they are.
   */
  int63(): bigint {
    return this.source.int63();
  }

  /** Go's `Uint64`, in [0, 2^64): the source's word itself. */
  uint64(): bigint {
    return this.source.uint64();
  }

  /** Go's `Uint32`: bits 31-62 of an Int63, in [0, 2^32). */
  uint32(): number {
    const hi = this.source.next();
    return ((hi << 1) | (this.source.lastLo >>> 31)) >>> 0;
  }

  /** Go's `Int31`: the top 31 bits of an Int63, in [0, 2^31). */
  int31(): number {
    return this.source.next() & 0x7fffffff;
  }

  /**
   * Go's `Int31n`, in [0, n) for an integer n in [1, 2^31-1]. Redraws above the largest multiple
   * of n, as Go does, so the result is unbiased and the stream position matches Go's.
   */
  int31n(n: number): number {
    checkInt31(n, 'int31n');
    if ((n & (n - 1)) === 0) return this.int31() & (n - 1);
    const max = INT31_MAX - (TWO_31 % n);
    let v = this.int31();
    while (v > max) v = this.int31();
    return v % n;
  }

  /**
   * Makes `count` draws of `Intn(n)` and discards them: the stream then stands where Go's does
   * after drawing that many token ids (BLIS draws every token of a generated request).
   */
  skipIntn(n: number, count: number): void {
    checkInt31(n, 'skipIntn');
    this.source.skipInt31Draws(count, (n & (n - 1)) === 0 ? INT31_MAX : INT31_MAX - (TWO_31 % n));
  }

  /**
   * Go's `Intn` (int is 64 bits in BLIS's builds), in [0, n) for a safe integer n >= 1. Like Go,
   * n up to 2^31-1 goes through Int31n and anything larger through Int63n.
   */
  intn(n: number): number {
    if (n <= INT31_MAX) return this.int31n(n);
    if (!Number.isSafeInteger(n)) throw new RangeError(`GoRand.intn: n must be a safe integer >= 1, got ${n}`);
    return Number(this.int63n(BigInt(n)));
  }

  /** Go's `Int63n`, in [0, n) for n in [1, 2^63-1]. */
  int63n(n: bigint): bigint {
    if (n <= 0n || n > INT63_MAX) throw new RangeError(`GoRand.int63n: n must be in [1, 2^63-1], got ${n}`);
    if ((n & (n - 1n)) === 0n) return this.int63() & (n - 1n);
    const max = INT63_MAX - (TWO_63 % n);
    let v = this.int63();
    while (v > max) v = this.int63();
    return v % n;
  }

  /**
   * Go's `Float64`, in [0, 1): Int63 / 2^63. The int-to-double conversion rounds to nearest, so a
   * value within 2^9 of 2^63 becomes 1.0; Go draws again then, and so must we.
   */
  float64(): number {
    for (;;) {
      const hi = this.source.next() & 0x7fffffff;
      // hi·2^32 is exact; the one addition rounds exactly as Go's conversion of the int64 does.
      const f = (hi * TWO_32 + this.source.lastLo) / TWO_63_FLOAT;
      if (f !== 1) return f;
    }
  }

  /** Go's `ExpFloat64`: exponential with rate 1, by Marsaglia and Tsang's ziggurat. */
  expFloat64(): number {
    return expFloat64(this);
  }

  /** Go's `NormFloat64`: standard normal, by Marsaglia and Tsang's ziggurat. */
  normFloat64(): number {
    return normFloat64(this);
  }

  /** Go's `Perm`: a random permutation of 0..n-1, drawing Intn(i+1) for every i from 0 (even the useless first). */
  perm(n: number): number[] {
    const m = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      const j = this.intn(i + 1);
      m[i] = m[j];
      m[j] = i;
    }
    return m;
  }

  /**
   * Go's `Shuffle`: Fisher-Yates from the top, calling `swap(i, j)` in Go's order. Unlike Intn,
   * Go picks j here with Lemire's multiply-shift (its unexported int31n), a different stream.
   */
  shuffle(n: number, swap: (i: number, j: number) => void): void {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`GoRand.shuffle: n must be a non-negative safe integer, got ${n}`);
    let i = n - 1;
    for (; i > INT31_MAX - 1; i--) swap(i, Number(this.int63n(BigInt(i + 1))));
    for (; i > 0; i--) swap(i, this.lemire31n(i + 1));
  }

  /** Go's unexported `int31n`: high half of a 32x32-bit product, with Lemire's rejection of the biased low range. */
  private lemire31n(n: number): number {
    const thresh = (TWO_32 - n) % n;
    for (;;) {
      const v = this.uint32();
      // The 64-bit product v·n exceeds 2^53, so it is assembled from two exact 48-bit pieces.
      const low = Math.imul(v, n) >>> 0;
      const a = (v & 0xffff) * n;
      const b = (v >>> 16) * n;
      const high = Math.floor(b / 65536) + Math.floor(((b % 65536) * 65536 + a) / TWO_32);
      // Go tests low < n before computing thresh, only to skip a division; thresh < n, so
      // this single test accepts and rejects the same draws.
      if (low >= thresh) return high;
    }
  }
}
