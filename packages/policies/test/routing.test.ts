import { describe, expect, it } from 'vitest';
import {
  createRoutingPolicy,
  policyContext,
  type RandomSource,
  type Scorer,
} from '../src/index.js';
import {
  createAlwaysBusiest,
  createCostEscalation,
  createKvUtilizationScorer,
  createLeastKv,
  createLeastLoaded,
  createPrefixAware,
  createPrefixOverlap,
  createQueueDepthScorer,
  createRoundRobin,
  createSessionAffinity,
  createWeightedRouting,
} from '../src/internal.js';
import { request, routerState, snapshots } from '../src/testing/index.js';

/** A random source whose every nextInt returns `k`, recording the bound it was asked for. */
function scripted(k: number, draws: number[]): RandomSource {
  return {
    next: () => Number.NaN,
    nextInt: (n) => {
      draws.push(n);
      return k;
    },
  };
}

describe('round-robin', () => {
  it('sends the k-th routed request to k mod N and carries no scores', () => {
    const rr = createRoundRobin();
    const state = routerState(snapshots({}, {}, {}));
    const picks = Array.from({ length: 7 }, (_, k) => rr.route(request({ index: k }), state));
    expect(picks.map((d) => d.instance)).toEqual([0, 1, 2, 0, 1, 2, 0]);
    expect(picks[4].reason).toBe('round-robin[4]');
    expect(picks[0].scores).toBeUndefined();
  });
  it('uses the current pool size', () => {
    const rr = createRoundRobin();
    rr.route(request(), routerState(snapshots({}, {}, {})));
    expect(rr.route(request(), routerState(snapshots({}, {}))).instance).toBe(1);
    expect(rr.route(request(), routerState(snapshots({}, {}))).instance).toBe(0);
  });
  it('refuses an empty pool', () => {
    expect(() => createRoundRobin().route(request(), routerState([]))).toThrow(/no instances/);
  });
});

describe('least-loaded and always-busiest', () => {
  const state = routerState(
    snapshots(
      { queueDepth: 3 },
      { batchSize: 1, inFlightRequests: 1 }, // 2
      { queueDepth: 1, inFlightRequests: 1 }, // 2
      { queueDepth: 1, batchSize: 1, inFlightRequests: 1 }, // 3
    ),
  );
  it('least-loaded picks the minimum effective load, lowest index on ties without a random source', () => {
    const d = createLeastLoaded().route(request(), state);
    expect(d.instance).toBe(1);
    expect(d.reason).toBe('least-loaded (load=2)');
  });
  it('least-loaded with a random source draws among the tied minimum (1 and 2) in position order', () => {
    const draws: number[] = [];
    const pick = (k: number) => createLeastLoaded(scripted(k, draws)).route(request(), state);
    expect(pick(0).instance).toBe(1);
    const second = pick(1);
    expect(second.instance).toBe(2);
    expect(second.reason).toBe('least-loaded (load=2)');
    expect(draws).toEqual([2, 2]);
  });
  it('the registry hands least-loaded the random source of its context', () => {
    const draws: number[] = [];
    const policy = createRoutingPolicy('least-loaded', policyContext({ numInstances: 4, random: scripted(1, draws) }));
    expect(policy.route(request(), state).instance).toBe(2);
    expect(draws).toEqual([2]);
  });
  it('always-busiest picks the maximum, lowest index on ties', () => {
    expect(createAlwaysBusiest().route(request(), state).instance).toBe(0);
  });
});

describe('weighted', () => {
  // queue-depth: waiting queues [4, 0, 2] -> [0, 1, 0.5]; kv-utilization: [0.9, 0.1, 0.8]
  const state = routerState(
    snapshots(
      { queueDepth: 4, kvUtilization: 0.1 },
      { kvUtilization: 0.9 },
      { queueDepth: 2, kvUtilization: 0.2 },
    ),
  );

  it('takes the argmax of weighted sums with weights normalised to 1', () => {
    const policy = createWeightedRouting([
      { scorer: createQueueDepthScorer(), weight: 2 },
      { scorer: createKvUtilizationScorer(), weight: 1 },
    ]);
    const d = policy.route(request(), state);
    // [0*2/3 + 0.9/3, 1*2/3 + 0.1/3, 0.5*2/3 + 0.8/3] = [0.3, 0.7, 0.6]
    expect(d.instance).toBe(1);
    expect(Array.from(d.scores ?? [])).toEqual([0.3, 0.7, 0.6].map((x) => expect.closeTo(x, 12)));
    expect(Array.from(d.breakdown?.['queue-depth'] ?? [])).toEqual([0, 1, 0.5]);
    expect(Array.from(d.breakdown?.['kv-utilization'] ?? [])).toEqual([
      expect.closeTo(0.9, 12),
      expect.closeTo(0.1, 12),
      expect.closeTo(0.8, 12),
    ]);
  });

  it('depends only on weight ratios', () => {
    const make = (a: number, b: number) =>
      createWeightedRouting([
        { scorer: createQueueDepthScorer(), weight: a },
        { scorer: createKvUtilizationScorer(), weight: b },
      ]);
    const small = make(1, 4).route(request(), state);
    const large = make(10, 40).route(request(), state);
    // [0 + 0.72, 0.2 + 0.08, 0.1 + 0.64]
    expect(small.instance).toBe(2);
    expect(large.instance).toBe(2);
    for (let i = 0; i < 3; i++) {
      expect(large.scores?.[i]).toBeCloseTo(small.scores?.[i] ?? Number.NaN, 12);
    }
    expect(small.scores?.[0]).toBeCloseTo(0.72, 12);
  });

  it('clamps out-of-range scores and, without a random source, breaks ties towards the lowest index', () => {
    const wild: Scorer = {
      name: 'wild',
      score: (_r, _s, out) => {
        out[0] = 5;
        out[1] = 1;
        out[2] = -3;
      },
    };
    const d = createWeightedRouting([{ scorer: wild, weight: 1 }]).route(request(), state);
    expect(Array.from(d.scores ?? [])).toEqual([1, 1, 0]);
    expect(d.instance).toBe(0);
    expect(Array.from(d.breakdown?.wild ?? [])).toEqual([5, 1, -3]);
  });

  it('calls observe after choosing, with the chosen position', () => {
    const calls: number[] = [];
    const spy: Scorer = {
      name: 'spy',
      score: (_r, _s, out) => {
        out.fill(0);
        out[2] = 1;
      },
      observe: (_r, chosen) => calls.push(chosen),
    };
    createWeightedRouting([{ scorer: spy, weight: 1 }]).route(request(), state);
    expect(calls).toEqual([2]);
  });

  it('defaults to precise-prefix-cache:2, queue-depth:1, kv-utilization:1 (BLIS HEAD)', () => {
    const draws: number[] = [];
    const policy = createRoutingPolicy('weighted', policyContext({ numInstances: 2, random: scripted(1, draws) }));
    const cold = policy.route(request({ index: 0, blockHashes: [1, 2] }), routerState(snapshots({}, {})));
    // Nothing cached and equal load: every scorer gives 1 everywhere, a tie between both
    // instances, so the context's random source draws nextInt(2) = 1 (the scripted value).
    expect(Array.from(cold.scores ?? [])).toEqual([1, 1]);
    expect(draws).toEqual([2]);
    expect(cold.instance).toBe(1);
    expect(Object.keys(cold.breakdown ?? {})).toEqual(['precise-prefix-cache', 'queue-depth', 'kv-utilization']);
    // i0 holds 2 of the 3 blocks but has one request waiting and 40% KV; i1 is idle and empty.
    const state = routerState(snapshots({ cached: [1, 2], queueDepth: 1, kvUtilization: 0.4 }, {}));
    const d = policy.route(request({ index: 1, blockHashes: [1, 2, 3] }), state);
    // waiting queues 1, 0 -> queue-depth 0, 1
    // i0: 2/4 * 1 + 1/4 * 0 + 1/4 * 0.6 = 0.65 ; i1: 2/4 * 0 + 1/4 * 1 + 1/4 * 1 = 0.5
    expect(d.scores?.[0]).toBeCloseTo(0.65, 12);
    expect(d.scores?.[1]).toBeCloseTo(0.5, 12);
    expect(d.instance).toBe(0);
    expect(draws).toEqual([2]); // no tie, no draw
  });
});

describe('least-kv', () => {
  it('picks the lowest KV utilisation, lowest index on ties', () => {
    const d = createLeastKv().route(
      request(),
      routerState(
        snapshots({ kvUtilization: 0.8 }, { kvUtilization: 0.2 }, { kvUtilization: 0.2 }),
      ),
    );
    expect(d.instance).toBe(1);
    expect(Array.from(d.scores ?? [])).toEqual([expect.closeTo(0.2, 12), 0.8, 0.8]);
  });
});

describe('prefix-aware', () => {
  it('scores 0.8 * hasPrefix + 0.2 * (1 - min(load / 256, 1))', () => {
    const state = routerState(
      snapshots(
        { cached: [1, 2], queueDepth: 100, batchSize: 28 },
        {},
        { cached: [1], queueDepth: 300 },
      ),
    );
    const d = createPrefixAware().route(request({ blockHashes: [1, 2, 3] }), state);
    expect(Array.from(d.scores ?? [])).toEqual([
      expect.closeTo(0.9, 12),
      expect.closeTo(0.2, 12),
      expect.closeTo(0.8, 12),
    ]);
    expect(d.instance).toBe(0);
  });
  it('falls back to least outstanding without blocks', () => {
    const state = routerState(
      snapshots({ queueDepth: 5 }, { queueDepth: 1 }, { inFlightRequests: 3 }),
    );
    const d = createPrefixAware().route(request({ blockHashes: [] }), state);
    expect(d.instance).toBe(1);
    expect(d.scores).toBeUndefined();
  });
});

describe('prefix-overlap', () => {
  it('weights block overlap 0.7 and load 0.3', () => {
    const state = routerState(snapshots({ cached: [10] }, { cached: [10, 20, 30] }, {}));
    const d = createPrefixOverlap().route(request({ blockHashes: [10, 20, 30, 40, 50] }), state);
    expect(Array.from(d.scores ?? [])).toEqual([
      expect.closeTo(0.44, 12),
      expect.closeTo(0.72, 12),
      expect.closeTo(0.3, 12),
    ]);
    expect(d.instance).toBe(1);
  });
  it('ignores cache affinity at 90% load (circuit breaker)', () => {
    const state = routerState(
      snapshots({ cached: [0, 1, 2, 3, 4], queueDepth: 240, batchSize: 10 }, {}),
    );
    const d = createPrefixOverlap().route(request({ blockHashes: [0, 1, 2, 3, 4] }), state);
    expect(d.scores?.[0]).toBeCloseTo(0.3 * (1 - 250 / 256), 12);
    expect(d.instance).toBe(1);
  });
});

describe('session-affinity', () => {
  it('keeps a session on its first instance while it is routable', () => {
    const policy = createSessionAffinity();
    const a = request({ sessionId: 'a' });
    expect(policy.route(a, routerState(snapshots({ queueDepth: 3 }, {}))).instance).toBe(1);
    expect(policy.route(a, routerState(snapshots({}, { queueDepth: 9 }))).instance).toBe(1);
    // Instance 1 left the pool: re-home to the least outstanding.
    const rehomed = policy.route(
      a,
      routerState(snapshots({ index: 0 }, { index: 2, queueDepth: 1 })),
    );
    expect(rehomed.instance).toBe(0);
    expect(
      policy.route(a, routerState(snapshots({ index: 0, queueDepth: 9 }, { index: 1 }))).instance,
    ).toBe(0);
  });
  it('drops the oldest half of the table past maxSessions', () => {
    const policy = createSessionAffinity({ maxSessions: 2 });
    const idle = routerState(snapshots({}, { queueDepth: 1 }));
    for (const s of ['a', 'b', 'c', 'd']) policy.route(request({ sessionId: s }), idle);
    // 'a' was dropped when 'd' arrived (3 > 2 sessions: drop 1); 'b' survived.
    const shifted = routerState(snapshots({ queueDepth: 5 }, {}));
    expect(policy.route(request({ sessionId: 'b' }), shifted).instance).toBe(0);
    expect(policy.route(request({ sessionId: 'a' }), shifted).instance).toBe(1);
  });
  it('does not remember requests without a session', () => {
    const policy = createSessionAffinity();
    policy.route(request(), routerState(snapshots({}, {})));
    expect(policy.route(request(), routerState(snapshots({ queueDepth: 1 }, {}))).instance).toBe(1);
  });
});

describe('cost-escalation', () => {
  it('routes to the lowest decayed cost and escalates the chosen instance', () => {
    const policy = createCostEscalation();
    const at = (nowUs: number) => routerState(snapshots({}, {}), { nowUs });
    expect(policy.route(request(), at(0)).instance).toBe(0); // costs [1, 0]
    expect(policy.route(request(), at(0)).instance).toBe(1); // costs [1, 1]
    expect(policy.route(request(), at(0)).instance).toBe(0); // costs [2, 1]
    const d = policy.route(request(), at(1_000_000));
    const decay = Math.exp(-0.1);
    expect(d.scores?.[0]).toBeCloseTo(1 / (1 + 2 * decay), 12);
    expect(d.scores?.[1]).toBeCloseTo(1 / (1 + decay), 12);
    expect(d.instance).toBe(1);
  });
  it('charges queue depth and KV pressure', () => {
    const policy = createCostEscalation();
    const state = routerState(snapshots({ queueDepth: 4, kvUtilization: 0.5 }, {}));
    policy.route(request(), state); // instance 0: 1 + 0.5*4 + 2*0.5 = 4
    const d = policy.route(request(), state);
    expect(d.scores?.[0]).toBeCloseTo(1 / 5, 12);
  });
});
