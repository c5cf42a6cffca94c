import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TOKEN_ID } from '../../src/blis-draws.js';
import { GoRand } from '../../src/go-rand/go-rand.js';
import { selectSkipEngineForTests, type SkipEngine } from '../../src/go-rand/skip-words-wasm.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

// skipIntn stands for `count` discarded Intn draws (BLIS's token ids). A source's first skip of 64
// draws or more moves its ring into WebAssembly memory (where one of the skip-words-*.wat modules
// skips from then on); shorter first skips, and every skip where WebAssembly is missing, loop in
// JavaScript. Each must leave the stream where the draws themselves leave it, whatever the ring
// position (wraps of tap and feed) and however often the sampler rejects.
const ENGINES: SkipEngine[] = ['simd', 'scalar', 'js'];
const RANGES = [MAX_TOKEN_ID, 1 << 16, 2 ** 30 + 1, 3, 2 ** 31 - 1];

function afterDraws(seed: number, lead: number, n: number, count: number, skip: boolean): string[] {
  const r = GoRand.fromSeed(seed);
  for (let i = 0; i < lead; i++) r.int31();
  if (skip) r.skipIntn(n, count);
  else for (let i = 0; i < count; i++) r.intn(n);
  return [String(r.int63()), String(r.int31n(1000)), String(r.uint64())];
}

afterEach(() => selectSkipEngineForTests(undefined));

describe('GoRand.skipIntn', () => {
  it.each(ENGINES)('leaves the stream where count Intn draws leave it (%s)', (engine) => {
    selectSkipEngineForTests(engine);
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
        fc.integer({ min: 0, max: 1300 }),
        fc.constantFrom(...RANGES),
        fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 55, max: 75 }), fc.integer({ min: 255, max: 5000 })),
        (seed, lead, n, count) => {
          expect(afterDraws(seed, lead, n, count, true)).toEqual(afterDraws(seed, lead, n, count, false));
        },
      ),
      { numRuns: propertyRuns(150) },
    );
  });

  it('counts rejected words: a range rejecting about half the words skips about twice the words', () => {
    const words = (n: number) => {
      const probe = GoRand.fromSeed(7);
      probe.skipIntn(n, 10_000);
      const marker = String(probe.int63());
      const r = GoRand.fromSeed(7);
      for (let k = 0; k < 40_000; k++) if (String(r.int63()) === marker) return k;
      return -1;
    };
    expect(words(1 << 20)).toBe(10_000);
    const rejecting = words(2 ** 30 + 1);
    expect(rejecting).toBeGreaterThan(19_000);
    expect(rejecting).toBeLessThan(21_000);
  });

  it('a clone taken before a skip draws what the original drew', () => {
    const a = GoRand.fromSeed(99);
    a.skipIntn(MAX_TOKEN_ID, 777);
    const b = a.clone();
    a.skipIntn(MAX_TOKEN_ID, 4096);
    b.skipIntn(MAX_TOKEN_ID, 4096);
    expect([a.int63(), a.float64()]).toEqual([b.int63(), b.float64()]);
  });
});
