import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { GoRandSource } from '../../src/go-rand/go-source.js';
import { ringSlotsInUseForTests, selectSkipEngineForTests, type SkipEngine } from '../../src/go-rand/skip-words-wasm.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

// GoRandSource.skipInt31Draws through each engine (a WebAssembly module, whose ring then lives in
// the instance's memory, or the JavaScript loop) against a reference source that only ever steps
// next(): the words must be the same whatever the ring position (wraps of tap and feed inside a
// skip), the count (odd ones, ones around the stretch lengths and the move threshold) and the
// rejection rate, with next() draws and clones in between.

const ENGINES: SkipEngine[] = ['simd', 'scalar', 'js'];
const INT31_MAX = 2 ** 31 - 1;
/** Int31n's bound for BLIS's token ids (MAX_TOKEN_ID = 128,000): rarely rejects. */
const TOKEN_MAX = INT31_MAX - (2 ** 31 % 128_000);

const COUNTS = fc.oneof(
  fc.integer({ min: 0, max: 20 }),
  fc.integer({ min: 55, max: 75 }),
  fc.integer({ min: 265, max: 340 }),
  fc.integer({ min: 595, max: 620 }),
  fc.integer({ min: 1200, max: 1230 }),
  fc.integer({ min: 0, max: 5000 }),
);
/** Bounds that never reject, rarely reject, reject half the words, or up to 31 words in 32. */
const MAXES = fc.oneof(
  fc.constantFrom(INT31_MAX, TOKEN_MAX, 2 ** 30),
  fc.integer({ min: 2 ** 26, max: INT31_MAX }),
  fc.integer({ min: 2 ** 26, max: 2 ** 28 }),
);

type Op = { kind: 'skip'; count: number; max: number } | { kind: 'next'; n: number } | { kind: 'clone'; keep: boolean };
const OPS = fc.array(
  fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('skip' as const), count: COUNTS, max: MAXES }), weight: 3 },
    { arbitrary: fc.record({ kind: fc.constant('next' as const), n: fc.integer({ min: 1, max: 700 }) }), weight: 2 },
    { arbitrary: fc.record({ kind: fc.constant('clone' as const), keep: fc.boolean() }), weight: 1 },
  ),
  { maxLength: 8 },
);

function stepDraws(r: GoRandSource, count: number, max: number): void {
  for (let i = 0; i < count; i++) while ((r.next() & 0x7fffffff) > max);
}

function words(s: GoRandSource, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(s.next(), s.lastLo);
  return out;
}

function isResident(s: GoRandSource): boolean {
  return (s as unknown as { resident: unknown }).resident !== null;
}

afterEach(() => selectSkipEngineForTests(undefined));

describe.each(ENGINES)('GoRandSource.skipInt31Draws through %s', (engine) => {
  it('leaves the source where stepping next() leaves it, between next() draws and clones', () => {
    selectSkipEngineForTests(engine);
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), OPS, (seed, ops: Op[]) => {
        let s = new GoRandSource(seed);
        const ref = new GoRandSource(seed);
        for (const op of ops) {
          if (op.kind === 'skip') {
            s.skipInt31Draws(op.count, op.max);
            stepDraws(ref, op.count, op.max);
          } else if (op.kind === 'next') {
            expect(words(s, op.n)).toEqual(words(ref, op.n));
          } else {
            // Whichever of the two goes on, the other one's draws must not reach it.
            const c = s.clone();
            if (op.keep) c.skipInt31Draws(1000, TOKEN_MAX);
            else {
              s.skipInt31Draws(1000, TOKEN_MAX);
              s = c;
            }
          }
        }
        expect(words(s, 700)).toEqual(words(ref, 700));
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('accepts a word whose top 31 bits equal max and rejects one above it', () => {
    selectSkipEngineForTests(engine);
    for (const [seed, j] of [[1, 0], [2, 1], [3, 272], [4, 273], [5, 606], [6, 607], [7, 1234], [8, 1501]]) {
      const probe = new GoRandSource(seed);
      for (let k = 0; k < j; k++) probe.next();
      const top = probe.next() & 0x7fffffff;
      // The bound equal to the word's top bits, and one below it; well above 2^26 for a fair rate.
      for (const max of [top, top - 1].filter((m) => m >= 2 ** 27)) {
        const s = new GoRandSource(seed);
        const ref = new GoRandSource(seed);
        s.skipInt31Draws(3000, max);
        stepDraws(ref, 3000, max);
        expect(words(s, 700)).toEqual(words(ref, 700));
      }
    }
  });

  it('keeps many sources apart, more than one instance holds', () => {
    selectSkipEngineForTests(engine);
    const n = 45;
    const subjects = Array.from({ length: n }, (_, i) => new GoRandSource(1000 + i));
    const refs = Array.from({ length: n }, (_, i) => new GoRandSource(1000 + i));
    for (let round = 0; round < 4; round++) {
      subjects.forEach((s, i) => {
        const count = 64 + 97 * i + 311 * round;
        s.skipInt31Draws(count, round % 2 === 0 ? TOKEN_MAX : 2 ** 30);
        stepDraws(refs[i], count, round % 2 === 0 ? TOKEN_MAX : 2 ** 30);
        if (i % 3 === round % 3) expect(words(s, 5)).toEqual(words(refs[i], 5));
      });
    }
    if (engine !== 'js' && ringSlotsInUseForTests(engine) >= 0) expect(subjects.every(isResident)).toBe(true);
    subjects.forEach((s, i) => {
      expect(words(s, 700)).toEqual(words(refs[i], 700));
    });
  });

  it('keeps a resident ring across seed()', () => {
    selectSkipEngineForTests(engine);
    const s = new GoRandSource(3);
    s.skipInt31Draws(500, TOKEN_MAX);
    s.seed(77);
    const ref = new GoRandSource(77);
    s.skipInt31Draws(900, 2 ** 30);
    stepDraws(ref, 900, 2 ** 30);
    expect(words(s, 700)).toEqual(words(ref, 700));
  });
});

describe('resident rings', () => {
  it('go to the SIMD module by default, which Node compiles (else the simd cases above test the JavaScript loop)', () => {
    selectSkipEngineForTests(undefined);
    const before = ringSlotsInUseForTests('simd');
    expect(before).toBeGreaterThanOrEqual(0);
    const s = new GoRandSource(11);
    s.skipInt31Draws(100, TOKEN_MAX);
    expect(isResident(s)).toBe(true);
    expect(ringSlotsInUseForTests('simd')).toBe(before + 1);
  });

  it('are moved on the first long skip only, and clones start in JavaScript', () => {
    if (ringSlotsInUseForTests('scalar') < 0) return; // no WebAssembly here: nothing moves
    selectSkipEngineForTests('scalar');
    const s = new GoRandSource(5);
    s.skipInt31Draws(10, TOKEN_MAX);
    expect(isResident(s)).toBe(false);
    s.skipInt31Draws(1000, TOKEN_MAX);
    expect(isResident(s)).toBe(true);
    expect(isResident(s.clone())).toBe(false);
  });

  it('free their slots when their sources are collected', async () => {
    if (ringSlotsInUseForTests('scalar') < 0) return;
    selectSkipEngineForTests('scalar');
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const before = ringSlotsInUseForTests('scalar');
    (() => {
      for (let i = 0; i < 30; i++) new GoRandSource(i).skipInt31Draws(100, TOKEN_MAX);
    })();
    expect(ringSlotsInUseForTests('scalar')).toBe(before + 30);
    // Finalizers run in a task after the collection.
    for (let k = 0; k < 20 && ringSlotsInUseForTests('scalar') > before; k++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(ringSlotsInUseForTests('scalar')).toBeLessThanOrEqual(before);
  });
});
