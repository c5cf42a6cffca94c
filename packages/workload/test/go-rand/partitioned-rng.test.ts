import { describe, expect, it } from 'vitest';
import { GoRand, fnv1a64, GoPartitionedRng, goSubsystemRand, goSubsystemSeed } from '../../src/internal.js';
import { vectors } from './vectors.js';

describe("BLIS's PartitionedRNG seeds", () => {
  it('fnv1a64 equals Go hash/fnv New64a over UTF-8', () => {
    for (const { input, hash } of vectors.fnv1a64) expect(`${input}: ${fnv1a64(input)}`).toBe(`${input}: ${hash}`);
    expect(fnv1a64(new TextEncoder().encode('router'))).toBe(fnv1a64('router'));
    expect(fnv1a64('a\ud800b')).toBe(fnv1a64('a\ufffdb'));
  });

  it('derives each subsystem seed and stream as BLIS does', () => {
    for (const s of vectors.subsystems) {
      const label = `${s.master}/${s.subsystem}`;
      expect(`${label}: ${goSubsystemSeed(BigInt(s.master), s.subsystem)}`).toBe(`${label}: ${s.derived}`);
      expect(`${label}: ${goSubsystemSeed(Number(s.master), s.subsystem)}`).toBe(`${label}: ${s.derived}`);
      const r = goSubsystemRand(Number(s.master), s.subsystem);
      expect(s.int63.map(() => String(r.int63()))).toEqual(s.int63);
    }
  });

  it('GoPartitionedRng keeps one stream per subsystem', () => {
    const rng = new GoPartitionedRng(42);
    const router = rng.forSubsystem('router');
    expect(rng.forSubsystem('router')).toBe(router);
    const first = router.int63();
    expect(rng.forSubsystem('router').int63()).not.toBe(first);
    expect(rng.forSubsystem('workload').int63()).toBe(GoRand.fromSeed(42).int63());
  });

  it('rejects master seeds outside int64', () => {
    expect(() => goSubsystemSeed(2n ** 63n, 'router')).toThrow(RangeError);
    expect(() => goSubsystemSeed(2 ** 63, 'router')).toThrow(RangeError);
  });
});
