import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PartitionedRng } from '../src/index.js';
import { deriveSeed, fnv1a32 } from '../src/internal.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

const names = fc.constantFrom('workload', 'router', 'instance_0', 'instance_1', 'policy/admission', 'a', 'b');

function draws(rng: PartitionedRng, name: string, n: number): number[] {
  const s = rng.stream(name);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(s.next());
  return out;
}

describe('fnv1a32', () => {
  it('matches the published FNV-1a test vectors', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
  });
});

describe('PartitionedRng', () => {
  it('gives the same sequence for the same seed and name', () => {
    fc.assert(
      fc.property(fc.integer(), names, fc.integer({ min: 1, max: 50 }), (seed, name, n) => {
        expect(draws(new PartitionedRng(seed), name, n)).toEqual(draws(new PartitionedRng(seed), name, n));
      }),
    );
  });

  it('never lets drawing from one stream change another', () => {
    const script = fc.array(fc.record({ name: names, count: fc.integer({ min: 0, max: 20 }), kind: fc.constantFrom('next', 'normal', 'exp', 'int') }), {
      maxLength: 30,
    });
    fc.assert(
      fc.property(fc.integer(), names, script, (seed, watched, noise) => {
        // Reference: the watched stream alone.
        const alone = new PartitionedRng(seed);
        const want = draws(alone, watched, 40);
        // Same stream, with arbitrary draws from other streams interleaved between its own.
        const busy = new PartitionedRng(seed);
        const got: number[] = [];
        const w = busy.stream(watched);
        for (const step of noise) {
          if (step.name === watched) continue;
          const s = busy.stream(step.name);
          for (let i = 0; i < step.count; i++) {
            if (step.kind === 'next') s.next();
            else if (step.kind === 'normal') s.normal();
            else if (step.kind === 'exp') s.exponential(3);
            else s.nextInt(7);
          }
          got.push(w.next(), w.next());
        }
        while (got.length < 40) got.push(w.next());
        expect(got.slice(0, 40)).toEqual(want);
      }),
    );
  });

  it('returns the same stream object for a name, so draws continue rather than restart', () => {
    const rng = new PartitionedRng(7);
    const first = rng.stream('x').next();
    const second = rng.stream('x').next();
    expect(rng.stream('x')).toBe(rng.stream('x'));
    expect(second).not.toBe(first);
    expect(draws(new PartitionedRng(7), 'x', 2)).toEqual([first, second]);
  });

  it('gives different names and different seeds different streams', () => {
    expect(draws(new PartitionedRng(42), 'workload', 5)).not.toEqual(draws(new PartitionedRng(42), 'router', 5));
    expect(draws(new PartitionedRng(42), 'workload', 5)).not.toEqual(draws(new PartitionedRng(43), 'workload', 5));
    // Seeds that differ only above bit 32 still differ.
    expect(deriveSeed(1, 'w')).not.toBe(deriveSeed(1 + 2 ** 32, 'w'));
    expect(draws(new PartitionedRng(1), 'w', 5)).not.toEqual(draws(new PartitionedRng(1 + 2 ** 32), 'w', 5));
  });

  it('draws uniforms in [0, 1), integers in [0, n), positive exponentials and finite normals', () => {
    fc.assert(
      fc.property(fc.integer(), names, (seed, name) => {
        const s = new PartitionedRng(seed).stream(name);
        for (let i = 0; i < 200; i++) {
          const u = s.next();
          expect(u).toBeGreaterThanOrEqual(0);
          expect(u).toBeLessThan(1);
          const k = s.nextInt(5);
          expect(Number.isInteger(k) && k >= 0 && k < 5).toBe(true);
          expect(s.nextOpen()).toBeGreaterThan(0);
          expect(s.exponential(2)).toBeGreaterThan(0);
          expect(Number.isFinite(s.normal())).toBe(true);
        }
      }),
      { numRuns: propertyRuns(30) },
    );
  });

  it('has a plausible mean and spread (uniform 0.5 / 1/12, exponential mean, normal 0 / 1)', () => {
    const s = new PartitionedRng(42).stream('stats');
    const n = 100_000;
    let su = 0;
    let su2 = 0;
    let se = 0;
    let sn = 0;
    let sn2 = 0;
    for (let i = 0; i < n; i++) {
      const u = s.next();
      su += u;
      su2 += u * u;
      se += s.exponential(3);
      const z = s.normal();
      sn += z;
      sn2 += z * z;
    }
    expect(su / n).toBeCloseTo(0.5, 2);
    expect(su2 / n - (su / n) ** 2).toBeCloseTo(1 / 12, 2);
    expect(se / n).toBeGreaterThan(2.9);
    expect(se / n).toBeLessThan(3.1);
    expect(Math.abs(sn / n)).toBeLessThan(0.02);
    expect(sn2 / n).toBeGreaterThan(0.97);
    expect(sn2 / n).toBeLessThan(1.03);
  });

  it('rejects a non-finite seed', () => {
    expect(() => new PartitionedRng(Number.NaN)).toThrow(RangeError);
    expect(() => new PartitionedRng(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
