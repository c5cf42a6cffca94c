import { describe, expect, it } from 'vitest';
import type { Scorer } from '../src/index.js';
import { createWeightedRouting } from '../src/internal.js';
import { ScoreArena } from '../src/routing/score-arena.js';
import { request, routerState, snapshots } from '../src/testing/index.js';

describe('ScoreArena', () => {
  it('hands out zeroed arrays that never share an element, across slabs', () => {
    const arena = new ScoreArena();
    const taken: Float64Array[] = [];
    for (let i = 0; i < 2000; i++) {
      const a = arena.take(1 + (i % 17));
      expect(a.length).toBe(1 + (i % 17));
      expect(a.every((x) => x === 0)).toBe(true);
      a.fill(i + 1);
      taken.push(a);
    }
    for (const [i, a] of taken.entries()) expect(a.every((x) => x === i + 1)).toBe(true);
  });
  it('serves a request larger than a slab', () => {
    const arena = new ScoreArena();
    arena.take(3);
    const big = arena.take(10_000);
    expect(big.length).toBe(10_000);
    expect(big.every((x) => x === 0)).toBe(true);
    expect(arena.take(2).length).toBe(2);
  });
});

describe('weighted routing decisions', () => {
  it('keep their scores and breakdown however many decisions follow', () => {
    let call = 0;
    const counting: Scorer = {
      name: 'counting',
      score: (_r, s, out) => {
        call++;
        for (let i = 0; i < s.instances.length; i++) out[i] = ((call + i) % 10) / 10;
      },
    };
    const policy = createWeightedRouting([{ scorer: counting, weight: 1 }]);
    const state = routerState(snapshots(...Array.from({ length: 16 }, () => ({}))));
    const decisions = Array.from({ length: 1000 }, () => policy.route(request(), state));
    for (const [k, d] of decisions.entries()) {
      const expected = Array.from({ length: 16 }, (_, i) => ((k + 1 + i) % 10) / 10);
      expect(Array.from(d.scores ?? [])).toEqual(expected);
      expect(Array.from(d.breakdown?.counting ?? [])).toEqual(expected);
    }
  });
});
