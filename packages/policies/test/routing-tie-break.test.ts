import { describe, expect, it } from 'vitest';
import {
  createRoutingPolicy,
  policyContext,
  type RandomSource,
  type Scorer,
} from '../src/index.js';
import {
  createKvUtilizationScorer,
  createLeastLoaded,
  createQueueDepthScorer,
  createWeightedRouting,
} from '../src/internal.js';
import { request, routerState, snapshots } from '../src/testing/index.js';

// BLIS breaks a tie between routing scores with one draw from its router stream: among the tied
// instances, in position order, Intn(count) picks one. One draw per decision, and only when two
// or more tie; without a random source the lowest position wins, as before.

/** A random source that answers nextInt with `ks` in turn and records every bound asked for. */
function scripted(ks: readonly number[]): RandomSource & { draws: number[] } {
  const draws: number[] = [];
  let i = 0;
  return {
    draws,
    next: () => {
      throw new Error('tie-breaks draw integers only');
    },
    nextInt: (n) => {
      draws.push(n);
      const k = ks[i++ % ks.length];
      if (k >= n) throw new Error(`scripted ${k} out of range for nextInt(${n})`);
      return k;
    },
  };
}

/** A scorer writing fixed values (the instances' scores), so ties are exact. */
function fixed(values: readonly number[]): Scorer {
  return {
    name: 'fixed',
    score: (_r, _s, out) => {
      for (let i = 0; i < values.length; i++) out[i] = values[i];
    },
  };
}

const FOUR = routerState(snapshots({}, {}, {}, {}));

describe('weighted: ties broken by a draw from the random source', () => {
  // Instances 0, 2 and 3 tie at the top (0.8); instance 1 scores lower.
  const tiedThreeOfFour = [0.8, 0.3, 0.8, 0.8];

  it.each([
    [0, 0],
    [1, 2],
    [2, 3],
  ])('nextInt(3) = %i picks instance %i, the k-th tied one in position order', (k, expected) => {
    const random = scripted([k]);
    const d = createWeightedRouting([{ scorer: fixed(tiedThreeOfFour), weight: 1 }], random).route(request(), FOUR);
    expect(d.instance).toBe(expected);
    expect(random.draws).toEqual([3]);
  });

  it('the tied set need not start at position 0', () => {
    // Ties at 1 and 3: nextInt(2) = 0 -> 1, = 1 -> 3.
    const scores = [0.2, 0.9, 0.5, 0.9];
    for (const [k, expected] of [
      [0, 1],
      [1, 3],
    ]) {
      const random = scripted([k]);
      expect(createWeightedRouting([{ scorer: fixed(scores), weight: 1 }], random).route(request(), FOUR).instance).toBe(expected);
      expect(random.draws).toEqual([2]);
    }
  });

  it('draws exactly once per decision with a tie and never without one', () => {
    const random = scripted([1, 0, 2]);
    let scores: number[] = [0.8, 0.3, 0.8, 0.8];
    const policy = createWeightedRouting([{ scorer: { name: 'v', score: (_r, _s, out) => out.set(scores) }, weight: 1 }], random);
    expect(policy.route(request({ index: 0 }), FOUR).instance).toBe(2); // tie of 3, k = 1
    expect(random.draws).toEqual([3]);
    scores = [0.1, 0.2, 0.9, 0.4]; // a unique maximum: no draw
    expect(policy.route(request({ index: 1 }), FOUR).instance).toBe(2);
    expect(random.draws).toEqual([3]);
    scores = [0.5, 0.5, 0.1, 0.1]; // tie of 2, the next scripted value k = 0
    expect(policy.route(request({ index: 2 }), FOUR).instance).toBe(0);
    expect(random.draws).toEqual([3, 2]);
    scores = [0.4, 0.4, 0.4, 0.4]; // all four tie, k = 2
    expect(policy.route(request({ index: 3 }), FOUR).instance).toBe(2);
    expect(random.draws).toEqual([3, 2, 4]);
  });

  it('a tie is exact equality of the summed weighted scores, after clamping', () => {
    // Raw 5 and 1 both clamp to 1: a tie between 0 and 1 (k = 1 -> 1); instance 2 is below.
    const random = scripted([1]);
    const d = createWeightedRouting([{ scorer: fixed([5, 1, 0.999]), weight: 1 }], random).route(request(), routerState(snapshots({}, {}, {})));
    expect(Array.from(d.scores ?? [])).toEqual([1, 1, 0.999]);
    expect(d.instance).toBe(1);
    expect(random.draws).toEqual([2]);
  });

  it('observers are told the drawn instance', () => {
    const seen: number[] = [];
    const spy: Scorer = { name: 'spy', score: (_r, _s, out) => out.fill(0.5), observe: (_r, chosen) => seen.push(chosen) };
    createWeightedRouting([{ scorer: spy, weight: 1 }], scripted([3])).route(request(), FOUR);
    expect(seen).toEqual([3]);
  });

  it('without a random source, the lowest tied position wins', () => {
    expect(createWeightedRouting([{ scorer: fixed(tiedThreeOfFour), weight: 1 }]).route(request(), FOUR).instance).toBe(0);
    expect(createWeightedRouting([{ scorer: fixed([0.2, 0.9, 0.5, 0.9]), weight: 1 }]).route(request(), FOUR).instance).toBe(1);
  });

  it('the registry hands weighted routing the random source of its context', () => {
    const random = scripted([3]);
    const policy = createRoutingPolicy(
      'weighted',
      policyContext({ numInstances: 4, random, params: { scorers: [{ name: 'queue-depth', weight: 1 }, { name: 'kv-utilization', weight: 1 }] } }),
    );
    // Four idle instances: every score is 1, all four tie; nextInt(4) = 3.
    expect(policy.route(request(), FOUR).instance).toBe(3);
    expect(random.draws).toEqual([4]);
  });

  it('a weighted composition ties only when the weighted sums agree', () => {
    // queue-depth (waiting queues 0, 2, 0, 0) -> [1, 0, 1, 1]; kv-utilization [0.5, 1, 0.5, 0.25]
    // -> weights 1:1: [0.75, 0.5, 0.75, 0.625]; 0 and 2 tie.
    const state = routerState(
      snapshots({ kvUtilization: 0.5 }, { queueDepth: 2 }, { kvUtilization: 0.5 }, { kvUtilization: 0.75 }),
    );
    const random = scripted([1]);
    const d = createWeightedRouting(
      [
        { scorer: createQueueDepthScorer(), weight: 1 },
        { scorer: createKvUtilizationScorer(), weight: 1 },
      ],
      random,
    ).route(request(), state);
    expect(Array.from(d.scores ?? [])).toEqual([0.75, 0.5, 0.75, 0.625]);
    expect(d.instance).toBe(2);
    expect(random.draws).toEqual([2]);
  });
});

describe('least-loaded: ties broken by a draw from the random source', () => {
  // Effective loads 2, 2, 5, 2: instances 0, 1 and 3 tie at the minimum.
  const state = routerState(
    snapshots({ queueDepth: 2 }, { batchSize: 1, inFlightRequests: 1 }, { queueDepth: 5 }, { inFlightRequests: 2 }),
  );

  it.each([
    [0, 0],
    [1, 1],
    [2, 3],
  ])('nextInt(3) = %i picks instance %i, the k-th tied one in position order', (k, expected) => {
    const random = scripted([k]);
    const d = createLeastLoaded(random).route(request(), state);
    expect(d.instance).toBe(expected);
    expect(d.reason).toBe('least-loaded (load=2)');
    expect(random.draws).toEqual([3]);
  });

  it('draws exactly once per decision with a tie and never without one', () => {
    const random = scripted([1]);
    const policy = createLeastLoaded(random);
    const unique = routerState(snapshots({ queueDepth: 2 }, { queueDepth: 1 }, { queueDepth: 5 }, { queueDepth: 3 }));
    expect(policy.route(request(), unique).instance).toBe(1);
    expect(random.draws).toEqual([]);
    expect(policy.route(request(), state).instance).toBe(1);
    expect(random.draws).toEqual([3]);
  });

  it('without a random source, the lowest tied position wins', () => {
    expect(createLeastLoaded().route(request(), state).instance).toBe(0);
  });
});
