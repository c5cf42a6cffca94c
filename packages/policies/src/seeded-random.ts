import type { RandomSource } from './random-source.js';

/**
 * A small deterministic {@link RandomSource} (SplitMix32) for tests and for callers that build
 * policies outside a simulation. Simulations hand policies a stream from `PartitionedRng`.
 */
export function seededRandomSource(seed: number): RandomSource {
  let state = seed >>> 0;
  const nextUint32 = (): number => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  return {
    next: () => nextUint32() / 4294967296,
    nextInt: (n: number) => {
      if (!Number.isInteger(n) || n <= 0) {
        throw new RangeError(`nextInt: n must be a positive integer, got ${n}`);
      }
      return Math.floor((nextUint32() / 4294967296) * n);
    },
  };
}
