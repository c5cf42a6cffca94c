import { describe, expect, it } from 'vitest';
import type { RandomSource, Scorer } from '../src/index.js';
import {
  createActiveRequestsScorer,
  createKvUtilizationScorer,
  createLoadAwareScorer,
  createLoadBalanceScorer,
  createNoHitLruScorer,
  createPrecisePrefixCacheScorer,
  createPrefixAffinityScorer,
  createQueueDepthScorer,
  createRunningRequestsScorer,
  createTokenBucket,
  createVllmDpScorer,
  createWeightedRouting,
} from '../src/internal.js';
import { request, routerState, scoreAll, snapshots } from '../src/testing/index.js';

// Every scorer's formula on ONE hand-built 4-instance picture, with the arithmetic written out,
// then the weighted composition of all nine (clamp, normalised weights, argmax, ties to the
// lowest index or to a draw from the random source) and the token bucket over time. scorers.test.ts and routing.test.ts check each formula's
// edge cases in isolation; this file checks that the numbers agree on a shared, realistic case.

const H1 = 0xabc1;
const H2 = 0xabc2;
const H3 = 0xabc3;
const H4 = 0xabc4;

//                 queue  batch  in-flight  effective load   KV util  cached blocks
// instance 0        2      3        6       2+3+6   = 11      0.75    H1 H2 H3
// instance 1        0      0        0                 0       0       -
// instance 2      130     10      150       130+10+150 = 290  0.5     H1
// instance 3        1      3        4       1+3+4   =  8      0.25    H1 H2
const STATE = routerState(
  snapshots(
    { queueDepth: 2, batchSize: 3, inFlightRequests: 6, kvUtilization: 0.75, cached: [H1, H2, H3] },
    { queueDepth: 0, batchSize: 0, inFlightRequests: 0, kvUtilization: 0, cached: [] },
    { queueDepth: 130, batchSize: 10, inFlightRequests: 150, kvUtilization: 0.5, cached: [H1] },
    { queueDepth: 1, batchSize: 3, inFlightRequests: 4, kvUtilization: 0.25, cached: [H1, H2] },
  ),
);
const REQ = request({ index: 9, blockHashes: [H1, H2, H3, H4] });

/** A prefix-affinity scorer whose router-side index saw [H1 H2 H3] go to 0 and [H1 H2] to 3. */
function trainedPrefixAffinity() {
  const pa = createPrefixAffinityScorer();
  pa.observe?.(request({ index: 0, blockHashes: [H1, H2, H3] }), 0, STATE);
  pa.observe?.(request({ index: 1, blockHashes: [H1, H2] }), 3, STATE);
  return pa;
}

/** Each scorer's expected output on STATE / REQ, computed by hand. */
const EXPECTED: Record<string, number[]> = {
  // leading blocks of REQ in the router index / 4 blocks: 3/4, 0, 0, 2/4
  'prefix-affinity': [0.75, 0, 0, 0.5],
  // real cached leading blocks 3, 0, 1, 2; min-max: (h - 0) / (3 - 0)
  'precise-prefix-cache': [1, 0, 1 / 3, 2 / 3],
  // H1 is cached on some instance, so REQ is warm: neutral 0.5 everywhere
  'no-hit-lru': [0.5, 0.5, 0.5, 0.5],
  // waiting queues 2, 0, 130, 1 (the queue alone, not the effective load); (130 - q) / (130 - 0)
  'queue-depth': [128 / 130, 1, 0, 129 / 130],
  // 1 - util
  'kv-utilization': [0.25, 1, 0.5, 0.75],
  // 1 / (1 + load)
  'load-balance': [1 / 12, 1, 1 / 291, 1 / 9],
  // in flight 6, 0, 150, 4; max 150: (150 - c) / 150, and 0 in flight -> 1
  'active-requests': [144 / 150, 1, 0, 146 / 150],
  // batch 3, 0, 10, 3; (10 - b) / (10 - 0)
  'running-requests': [0.7, 1, 0, 0.7],
  // queue 2, 0, 130, 1: 0.5 * (1 - min(q, 128) / 128); empty queue 0.5
  'load-aware': [0.5 * (126 / 128), 0.5, 0, 0.5 * (127 / 128)],
  // vLLM's waiting × 4 + running: 11, 0, 530, 7; (530 - l) / (530 - 0)
  'vllm-dp': [519 / 530, 1, 0, 523 / 530],
};

const SCORERS: Record<string, () => Scorer> = {
  'prefix-affinity': trainedPrefixAffinity,
  'precise-prefix-cache': createPrecisePrefixCacheScorer,
  'no-hit-lru': createNoHitLruScorer,
  'queue-depth': createQueueDepthScorer,
  'kv-utilization': createKvUtilizationScorer,
  'load-balance': createLoadBalanceScorer,
  'active-requests': createActiveRequestsScorer,
  'running-requests': createRunningRequestsScorer,
  'load-aware': createLoadAwareScorer,
  'vllm-dp': createVllmDpScorer,
};

describe('each scorer on the shared picture', () => {
  it.each(Object.keys(EXPECTED))('%s', (name) => {
    const got = scoreAll(SCORERS[name](), REQ, STATE);
    expect(got).toHaveLength(4);
    for (let i = 0; i < 4; i++) expect(got[i], `${name}[${i}]`).toBeCloseTo(EXPECTED[name][i], 14);
  });

  it('no-hit-lru on a cold request: never-used instances first, in instance order', () => {
    // Nothing caches H4 first: cold. LRU history: a cold request went to 2, then one to 0.
    const s = createNoHitLruScorer();
    const cold = (index: number) => request({ index, blockHashes: [H4] });
    s.score(cold(0), STATE, new Float64Array(4));
    s.observe?.(cold(0), 2, STATE);
    s.score(cold(1), STATE, new Float64Array(4));
    s.observe?.(cold(1), 0, STATE);
    // Ranks: never used 1 (r0), 3 (r1); then oldest 2 (r2), newest 0 (r3). Score 1 - r / 3.
    expect(scoreAll(s, cold(2), STATE)).toEqual([0, 1, 1 - 2 / 3, 1 - 1 / 3]);
  });

  it('kv-utilization clamps a reported utilisation outside [0, 1]', () => {
    const odd = routerState(snapshots({ kvUtilization: 1.25 }, { kvUtilization: -0.5 }));
    // 1 - 1.25 = -0.25 -> 0; 1 - (-0.5) = 1.5 -> 1
    expect(scoreAll(createKvUtilizationScorer(), REQ, odd)).toEqual([0, 1]);
  });
});

describe('weighted: clamp, normalised weights, argmax, ties broken by position or by a draw', () => {
  // The nine scorers the sums below were worked out for (vllm-dp, added later, is left out).
  const NINE = Object.keys(SCORERS).filter((n) => n !== 'vllm-dp');
  const all = (weights: Record<string, number>) => createWeightedRouting(NINE.map((name) => ({ scorer: SCORERS[name](), weight: weights[name] ?? 1 })));

  // Per-instance sums of the nine raw scores above:
  // i0: 0.75 + 1 + 0.5 + 128/130 + 0.25 + 1/12 + 144/150 + 0.7 + 0.5*126/128
  // i1: 0 + 0 + 0.5 + 1 + 1 + 1 + 1 + 1 + 0.5 = 6
  // i2: 0 + 1/3 + 0.5 + 0 + 0.5 + 1/291 + 0 + 0 + 0
  // i3: 0.5 + 2/3 + 0.5 + 129/130 + 0.75 + 1/9 + 146/150 + 0.7 + 0.5*127/128
  const rest0 = 0.5 + 128 / 130 + 0.25 + 1 / 12 + 144 / 150 + 0.7 + 0.5 * (126 / 128); // i0 without the two prefix scorers
  const rest3 = 0.5 + 129 / 130 + 0.75 + 1 / 9 + 146 / 150 + 0.7 + 0.5 * (127 / 128);

  it('equal weights (1/9 each): the idle instance 1 wins on load', () => {
    const d = all({}).route(REQ, STATE);
    const expected = [(0.75 + 1 + rest0) / 9, 6 / 9, (1 / 3 + 0.5 + 0.5 + 1 / 291) / 9, (0.5 + 2 / 3 + rest3) / 9];
    expect(Array.from(d.scores ?? [])).toEqual(expected.map((x) => expect.closeTo(x, 12)));
    expect(d.instance).toBe(1);
  });

  it('prefix weights 3 + 3 of 13: the cached instance 0 wins', () => {
    // i0: (3*0.75 + 3*1 + rest0) / 13; i1: (0 + 0 + 6) / 13; i3: (3*0.5 + 3*2/3 + rest3) / 13
    const d = all({ 'prefix-affinity': 3, 'precise-prefix-cache': 3 }).route(REQ, STATE);
    expect(d.scores?.[0]).toBeCloseTo((2.25 + 3 + rest0) / 13, 12);
    expect(d.scores?.[1]).toBeCloseTo(6 / 13, 12);
    expect(d.scores?.[3]).toBeCloseTo((1.5 + 2 + rest3) / 13, 12);
    expect(d.instance).toBe(0);
    // Only the ratios matter: x0.01 gives the same scores.
    const small = all(Object.fromEntries(Object.keys(SCORERS).map((n) => [n, n.includes('prefix') ? 0.03 : 0.01]))).route(REQ, STATE);
    for (let i = 0; i < 4; i++) expect(small.scores?.[i]).toBeCloseTo(d.scores?.[i] ?? Number.NaN, 12);
  });

  it('clamps NaN and infinities before weighting', () => {
    const wild: Scorer = {
      name: 'wild',
      score(_r, _s, out) {
        out.set([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.4]);
      },
    };
    // wild clamps to [0, 1, 0, 0.4]; kv-utilization is [0.25, 1, 0.5, 0.75]; weights 1:3 -> /4
    const d = createWeightedRouting([
      { scorer: wild, weight: 1 },
      { scorer: createKvUtilizationScorer(), weight: 3 },
    ]).route(REQ, STATE);
    const expected = [(0 + 3 * 0.25) / 4, (1 + 3 * 1) / 4, (0 + 3 * 0.5) / 4, (0.4 + 3 * 0.75) / 4];
    expect(Array.from(d.scores ?? [])).toEqual(expected.map((x) => expect.closeTo(x, 12)));
    expect(d.instance).toBe(1);
  });

  // Instances 1 and 2 are identical and idle: queue-depth 1 and kv 1 on both.
  const tie = routerState(snapshots({ queueDepth: 4, kvUtilization: 0.5 }, {}, {}));
  const tieScorers = () => [
    { scorer: createQueueDepthScorer(), weight: 1 },
    { scorer: createKvUtilizationScorer(), weight: 1 },
  ];

  it('without a random source, ties go to the lowest instance position', () => {
    const d = createWeightedRouting(tieScorers()).route(REQ, tie);
    // [(0 + 0.5) / 2, (1 + 1) / 2, (1 + 1) / 2]
    expect(Array.from(d.scores ?? [])).toEqual([0.25, 1, 1]);
    expect(d.instance).toBe(1);
  });

  it('with a random source, one draw over the 2 tied instances picks among them in position order', () => {
    const draws: number[] = [];
    const scripted = (k: number): RandomSource => ({
      next: () => Number.NaN,
      nextInt: (n) => {
        draws.push(n);
        return k;
      },
    });
    expect(createWeightedRouting(tieScorers(), scripted(0)).route(REQ, tie).instance).toBe(1);
    expect(createWeightedRouting(tieScorers(), scripted(1)).route(REQ, tie).instance).toBe(2);
    expect(draws).toEqual([2, 2]);
  });
});

describe('token bucket over time (capacity 1000, refill 300 tokens/s, cost = input tokens)', () => {
  it('charges, refuses without charging, refills and caps at capacity', () => {
    const tb = createTokenBucket({ capacity: 1000, refillRate: 300 });
    const admit = (inputTokens: number, nowUs: number) => tb.admit(request({ inputTokens }), routerState(snapshots({}), { nowUs })).admit;
    expect(admit(600, 0)).toBe(true); // 1000 - 600 = 400
    expect(admit(600, 500_000)).toBe(false); // 400 + 0.5 s * 300 = 550 < 600; nothing charged
    expect(admit(600, 1_000_000)).toBe(true); // 550 + 150 = 700 -> 100
    expect(admit(100, 1_000_000)).toBe(true); // 100 -> 0 (no time passed, no refill)
    expect(admit(0, 1_000_000)).toBe(true); // a zero-token request costs nothing, even when empty
    expect(admit(901, 4_000_000)).toBe(false); // 0 + 3 s * 300 = 900 < 901
    expect(admit(1000, 5_000_000)).toBe(true); // 900 + 300 = 1200, capped at 1000 -> 0
    expect(admit(1, 5_000_000)).toBe(false);
    expect(admit(1, 5_003_334)).toBe(true); // 0.003334 s * 300 = 1.0002 >= 1
  });

  it('the cost is the input length only: the same prompt costs the same whatever it asks for', () => {
    // The view has no output length to charge (INV-9); two buckets fed prompts of 400 tokens
    // at the same times make the same decisions.
    const a = createTokenBucket({ capacity: 1000, refillRate: 100 });
    const b = createTokenBucket({ capacity: 1000, refillRate: 100 });
    const times = [0, 0, 0, 1_000_000, 2_000_000, 2_000_000, 6_000_000];
    const da = times.map((t, i) => a.admit(request({ index: i, inputTokens: 400 }), routerState(snapshots({}), { nowUs: t })).admit);
    const db = times.map((t, i) => b.admit(request({ index: i, inputTokens: 400, sloClass: 'batch', tenantId: 'x' }), routerState(snapshots({}), { nowUs: t })).admit);
    // 1000 -> 600 -> 200 -> reject; +100 = 300 reject; +100 = 400 admit -> 0; reject; +400 = 400 admit
    expect(da).toEqual([true, true, false, false, true, false, true]);
    expect(db).toEqual(da);
  });
});
