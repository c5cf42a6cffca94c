import { RNG_COOKED } from './rng-cooked.js';
import { moveRingIn, RING_HALVES, type ResidentRing } from './skip-words-wasm.js';

// Go's math/rand (v1) rngSource: an additive lagged Fibonacci generator,
// x[n] = x[n-607] + x[n-273] (mod 2^64), seeded through a Lehmer generator and rngCooked.
//
// Each 64-bit word lives as two 32-bit halves, low then high, in one Uint32Array: the layout of
// little-endian 64-bit words, so that the ring can move as it is into WebAssembly memory, where
// skip-words-wasm.ts skips words by the thousand (and next() keeps reading it there). BigInt would
// be the obvious representation, but it allocates on every addition, and the simulator draws
// millions of numbers; two halves with a hand-made carry keep a draw to a few integer operations.

const LEN = 607;
const TAP = 273;
const INT32_MAX = 2147483647;
const INT32_MAX_BIG = 2147483647n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Go substitutes this seed for one that is 0 modulo 2^31-1 (the Lehmer step would stay at 0). */
const ZERO_SEED_STANDIN = 89482311;
const TWO_32 = 4294967296;
/** A resident ring's skip of one draw stays in JavaScript: the call into WebAssembly costs about as much. */
const WASM_MIN_DRAWS = 2;
/**
 * A ring moves into WebAssembly memory (a copy, once) on the first skip of this many draws: a
 * source that skips that many once (a request's token ids) goes on skipping, and one that never
 * does keeps no slot.
 */
const MOVE_MIN_DRAWS = 64;

const COOKED_HI = new Uint32Array(LEN);
const COOKED_LO = new Uint32Array(LEN);
for (let i = 0; i < LEN; i++) {
  const word = BigInt.asUintN(64, RNG_COOKED[i]);
  COOKED_HI[i] = Number(word >> 32n);
  COOKED_LO[i] = Number(word & 0xffffffffn);
}

/** A Go `int64` seed: a bigint in [-2^63, 2^63) or a safe-integer number. */
export type GoSeed = bigint | number;

/**
 * One step of Go's seedrand, x -> 48271·x mod (2^31-1), by Schrage's method so that no product
 * leaves the int32 range (Go computes it in int32; here every value stays an exact small number).
 */
function lehmer(x: number): number {
  const hi = Math.trunc(x / 44488);
  const lo = x % 44488;
  x = 48271 * lo - 3399 * hi;
  return x < 0 ? x + INT32_MAX : x;
}

/** Go's reduction of an int64 seed to the Lehmer generator's range: truncated remainder, then made positive. */
function reduceSeed(seed: GoSeed): number {
  let r: number;
  if (typeof seed === 'bigint') {
    if (seed < INT64_MIN || seed > INT64_MAX) throw new RangeError(`Go seed ${seed} is outside the int64 range`);
    r = Number(seed % INT32_MAX_BIG);
  } else {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`Go seed ${seed} is not a safe integer; pass a bigint`);
    r = seed % INT32_MAX; // exact for safe integers, and truncated like Go's %
  }
  if (r < 0) r += INT32_MAX;
  return r === 0 ? ZERO_SEED_STANDIN : r;
}

/**
 * Go's `rand.NewSource(seed)` (the unexported rngSource): the same state, the same outputs.
 * Not safe to share between concurrent users, like Go's.
 */
export class GoRandSource {
  /** Word i's low half at 2i, its high half at 2i+1; a view on `resident`'s memory once that is set. */
  private ring = new Uint32Array(RING_HALVES);
  private tap = 0;
  private feed = LEN - TAP;
  /**
   * Low half of the word the last `next()` produced. `next()` returns the high half and leaves the
   * low one here, so that callers on the hot path get 64 bits without allocating.
   */
  lastLo = 0;
  /** Where the ring lives once a skip has moved it into WebAssembly memory, for good. */
  private resident: ResidentRing | null = null;

  constructor(seed: GoSeed) {
    this.seed(seed);
  }

  /** Go's `Seed`: the state depends only on the seed modulo 2^31-1. */
  seed(seed: GoSeed): void {
    this.tap = 0;
    this.feed = LEN - TAP;
    let x = reduceSeed(seed);
    // 20 discarded Lehmer steps, then three per word, spread over bits 40-63, 20-50 and 0-30.
    for (let i = 0; i < 20; i++) x = lehmer(x);
    for (let i = 0; i < LEN; i++) {
      x = lehmer(x);
      const a = x; // contributes a << 40: its low 24 bits land in the high half
      x = lehmer(x);
      const b = x; // contributes b << 20: straddles the halves
      x = lehmer(x);
      const c = x; // contributes c unshifted
      this.ring[2 * i + 1] = ((a << 8) ^ (b >>> 12) ^ COOKED_HI[i]) >>> 0;
      this.ring[2 * i] = ((b << 20) ^ c ^ COOKED_LO[i]) >>> 0;
    }
  }

  /**
   * Advances one step (Go's `Uint64`) and returns the high 32 bits of the new word as an unsigned
   * number; the low 32 bits are in `lastLo`.
   */
  next(): number {
    let tap = this.tap - 1;
    if (tap < 0) tap += LEN;
    let feed = this.feed - 1;
    if (feed < 0) feed += LEN;
    this.tap = tap;
    this.feed = feed;
    const w = this.ring;
    const f = feed << 1;
    const t = tap << 1;
    const sumLo = w[f] + w[t];
    const carry = sumLo >= TWO_32 ? 1 : 0;
    // Uint32Array stores wrap modulo 2^32, which is the 64-bit addition's wrap.
    w[f] = sumLo;
    w[f + 1] = w[f + 1] + w[t + 1] + carry;
    this.lastLo = w[f];
    return w[f + 1];
  }

  /**
   * Advances past `count` draws of a 31-bit rejection sampler: each draw takes words until one
   * whose top 31 bits are at most `max` (Go's Int31n loop; 2^31-1 for a power-of-two range, which
   * never rejects). The same words as `count` such loops over `next()`.
   */
  skipInt31Draws(count: number, max: number): void {
    if (count <= 0) return;
    let home = this.resident;
    if (home === null && count >= MOVE_MIN_DRAWS) {
      home = this.resident = moveRingIn(this, this.ring);
      if (home !== null) this.ring = home.ring;
    }
    if (home !== null && count >= WASM_MIN_DRAWS) {
      const packed = home.skip(home.base, this.tap, this.feed, count, max);
      this.tap = packed >>> 10;
      this.feed = packed & 1023;
      this.lastLo = this.ring[this.feed << 1];
      return;
    }
    for (let i = 0; i < count; i++) while ((this.next() & 0x7fffffff) > max);
  }

  /**
   * A source in this one's exact state: both then draw the same words (Go has no such method; a
   * replay of a stretch of draws needs it). The clone's ring is its own copy, in JavaScript until
   * the clone's own first long skip.
   */
  clone(): GoRandSource {
    const c = Object.create(GoRandSource.prototype) as GoRandSource;
    Object.assign(c, { ring: this.ring.slice(), tap: this.tap, feed: this.feed, lastLo: this.lastLo, resident: null });
    return c;
  }

  /** Go's `Uint64`: the next word, in [0, 2^64). */
  uint64(): bigint {
    const hi = this.next();
    return (BigInt(hi) << 32n) | BigInt(this.lastLo);
  }

  /** Go's `Int63`: the next word without its top bit, in [0, 2^63). */
  int63(): bigint {
    const hi = this.next() & 0x7fffffff;
    return (BigInt(hi) << 32n) | BigInt(this.lastLo);
  }
}
