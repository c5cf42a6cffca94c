import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

/** 32-bit FNV-1a of a string: how a subsystem name becomes part of its stream seed. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const TWO_POW_26 = 1 / 67108864;
const TWO_POW_53 = 1 / 9007199254740992;

/** One independent random stream. Mutates its own generator; never touches another stream. */
export class RandomStream {
  readonly name: string;
  private readonly gen: RandomGenerator;
  private spareNormal = Number.NaN;

  constructor(name: string, seed: number) {
    this.name = name;
    this.gen = xoroshiro128plus(seed);
  }

  /** Uniform in [0, 1) with 53 bits of randomness. */
  next(): number {
    const hi = this.gen.next() & 0x3ffffff;
    const lo = this.gen.next() & 0x7ffffff;
    return hi * TWO_POW_26 + lo * TWO_POW_53;
  }

  /** Uniform integer in [0, n). */
  nextInt(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Uniform in (0, 1): safe to take the logarithm of. */
  nextOpen(): number {
    let u = this.next();
    while (u === 0) u = this.next();
    return u;
  }

  /** Standard normal draw (Marsaglia polar method; the second value is kept for the next call). */
  normal(): number {
    if (!Number.isNaN(this.spareNormal)) {
      const s = this.spareNormal;
      this.spareNormal = Number.NaN;
      return s;
    }
    let u = 0;
    let v = 0;
    let s = 0;
    do {
      u = this.next() * 2 - 1;
      v = this.next() * 2 - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const m = Math.sqrt((-2 * Math.log(s)) / s);
    this.spareNormal = v * m;
    return u * m;
  }

  /** Exponential draw with the given mean. */
  exponential(mean: number): number {
    return -Math.log(this.nextOpen()) * mean;
  }
}

/**
 * Per-subsystem random streams derived from one master seed. A stream's seed depends only on
 * the master seed and the subsystem's name, so drawing more from `workload` never shifts what
 * `router` or `instance_3` see.
 */
export class PartitionedRng {
  readonly masterSeed: number;
  private readonly streams = new Map<string, RandomStream>();

  constructor(masterSeed: number) {
    if (!Number.isFinite(masterSeed)) throw new RangeError(`seed must be a finite number, found ${masterSeed}`);
    this.masterSeed = Math.trunc(masterSeed);
  }

  /** The stream for `name`, created on first use and reused afterwards. */
  stream(name: string): RandomStream {
    let s = this.streams.get(name);
    if (s === undefined) {
      s = new RandomStream(name, deriveSeed(this.masterSeed, name));
      this.streams.set(name, s);
    }
    return s;
  }
}

/** Mixes the master seed (all 53 bits) with the name's FNV-1a hash into a 32-bit seed. */
export function deriveSeed(masterSeed: number, name: string): number {
  const lo = masterSeed >>> 0;
  const hi = Math.floor(masterSeed / 4294967296) >>> 0;
  let h = Math.imul(lo ^ fnv1a32(name), 0x85ebca6b) ^ Math.imul(hi, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}
