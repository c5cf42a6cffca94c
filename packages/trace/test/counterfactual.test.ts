import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { regretOf, topCandidates } from '../src/counterfactual.js';

const scoresArb = fc.array(fc.double({ min: -1000, max: 1000, noNaN: true }), { minLength: 1, maxLength: 12 });

describe('regret', () => {
  it('is best minus chosen, by hand', () => {
    expect(regretOf([0.2, 0.9, 0.5], 0)).toBeCloseTo(0.7, 12);
    expect(regretOf([0.2, 0.9, 0.5], 2)).toBeCloseTo(0.4, 12);
    expect(regretOf([0.2, 0.9, 0.5], 1)).toBe(0);
    // Load fallback scores are negated loads: -0 must come out as +0.
    expect(Object.is(regretOf([-0, -0], 1), 0)).toBe(true);
  });

  it('ranks a NaN score below everything', () => {
    expect(regretOf([Number.NaN, 0.5], 1)).toBe(0);
    expect(regretOf([Number.NaN, 0.5], 0)).toBe(Number.POSITIVE_INFINITY);
  });

  it('is >= 0 and is 0 exactly when the chosen instance is an argmax', () => {
    fc.assert(
      fc.property(scoresArb, fc.nat(), (scores, c) => {
        const chosen = c % scores.length;
        const r = regretOf(scores, chosen);
        const best = Math.max(...scores);
        expect(r).toBeGreaterThanOrEqual(0);
        expect(r === 0).toBe(scores[chosen] === best);
      }),
    );
  });
});

describe('top-K candidates', () => {
  it('orders by score descending with ties to the lower position', () => {
    const top = topCandidates([0.5, 0.9, 0.5, 0.1], 3, { a: [1, 2, 3, 4] });
    expect(top).toEqual([
      { i: 1, s: 0.9, by: { a: 2 } },
      { i: 0, s: 0.5, by: { a: 1 } },
      { i: 2, s: 0.5, by: { a: 3 } },
    ]);
  });

  it('returns min(K, n) distinct candidates whose scores are the K largest', () => {
    fc.assert(
      fc.property(scoresArb, fc.integer({ min: 1, max: 15 }), (scores, k) => {
        const top = topCandidates(scores, k, undefined);
        expect(top.length).toBe(Math.min(k, scores.length));
        expect(new Set(top.map((c) => c.i)).size).toBe(top.length);
        const sorted = [...scores].sort((a, b) => b - a);
        top.forEach((c, r) => {
          expect(c.s).toBe(sorted[r] + 0);
          expect(c.by).toEqual({});
        });
        for (let r = 1; r < top.length; r++) if (top[r].s === top[r - 1].s) expect(top[r].i).toBeGreaterThan(top[r - 1].i);
      }),
    );
  });
});
