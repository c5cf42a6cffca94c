import { describe, expect, it } from 'vitest';
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
  PrefixCacheIndex,
} from '../src/internal.js';
import { request, routerState, scoreAll, snapshots } from '../src/testing/index.js';

describe('queue-depth', () => {
  it('min-max normalises the waiting-queue depth alone, a shorter queue scoring higher', () => {
    const state = routerState(
      snapshots(
        { queueDepth: 4, batchSize: 1, inFlightRequests: 1 }, // depth 4: (4 - 4) / 4 = 0
        { batchSize: 6, inFlightRequests: 5 }, // depth 0: (4 - 0) / 4 = 1, however busy
        { queueDepth: 2, batchSize: 1 }, // depth 2: (4 - 2) / 4 = 0.5
        { queueDepth: 3 }, // depth 3: (4 - 3) / 4 = 0.25
      ),
    );
    expect(scoreAll(createQueueDepthScorer(), request(), state)).toEqual([0, 1, 0.5, 0.25]);
  });
  it('ignores the running batch and requests in flight: equal waiting queues score 1 everywhere', () => {
    const state = routerState(
      snapshots({ queueDepth: 3 }, { queueDepth: 3, batchSize: 3 }, { queueDepth: 3, inFlightRequests: 3 }),
    );
    expect(scoreAll(createQueueDepthScorer(), request(), state)).toEqual([1, 1, 1]);
  });
  it('ranks on the waiting queue even when the effective load ranks the other way', () => {
    // Effective loads 3 and 5, but waiting queues 3 and 0: the busier instance with nothing
    // waiting scores 1, the idler one with three waiting 0.
    const state = routerState(snapshots({ queueDepth: 3 }, { batchSize: 4, inFlightRequests: 1 }));
    expect(scoreAll(createQueueDepthScorer(), request(), state)).toEqual([0, 1]);
  });
});

describe('kv-utilization', () => {
  it('is 1 - utilisation', () => {
    const state = routerState(snapshots({ kvUtilization: 0.25 }, { kvUtilization: 1 }, {}));
    expect(scoreAll(createKvUtilizationScorer(), request(), state)).toEqual([0.75, 0, 1]);
  });
});

describe('load-balance', () => {
  it('is 1 / (1 + effective load)', () => {
    const state = routerState(
      snapshots({ queueDepth: 1, batchSize: 1, inFlightRequests: 1 }, {}, { queueDepth: 1 }),
    );
    expect(scoreAll(createLoadBalanceScorer(), request(), state)).toEqual([0.25, 1, 0.5]);
  });
});

describe('active-requests', () => {
  it('uses max-only normalisation of in-flight counts; zero in flight scores 1', () => {
    const state = routerState(
      snapshots({ inFlightRequests: 0 }, { inFlightRequests: 2 }, { inFlightRequests: 4 }),
    );
    expect(scoreAll(createActiveRequestsScorer(), request(), state)).toEqual([1, 0.5, 0]);
  });
  it('scores 0 everywhere when all counts are equal and non-zero, 1 when all zero', () => {
    const same = routerState(snapshots({ inFlightRequests: 3 }, { inFlightRequests: 3 }));
    expect(scoreAll(createActiveRequestsScorer(), request(), same)).toEqual([0, 0]);
    const idle = routerState(snapshots({}, {}));
    expect(scoreAll(createActiveRequestsScorer(), request(), idle)).toEqual([1, 1]);
  });
});

describe('running-requests', () => {
  it('min-max normalises batch size; all equal scores 1', () => {
    const state = routerState(snapshots({ batchSize: 2 }, { batchSize: 4 }, { batchSize: 6 }));
    expect(scoreAll(createRunningRequestsScorer(), request(), state)).toEqual([1, 0.5, 0]);
    const same = routerState(snapshots({ batchSize: 5 }, { batchSize: 5 }));
    expect(scoreAll(createRunningRequestsScorer(), request(), same)).toEqual([1, 1]);
  });
});

describe('load-aware', () => {
  it('is 0.5 * (1 - min(queue, 128) / 128), 0.5 for an empty queue', () => {
    const state = routerState(
      snapshots(
        { queueDepth: 0 },
        { queueDepth: 32 },
        { queueDepth: 64 },
        { queueDepth: 128 },
        { queueDepth: 500 },
      ),
    );
    expect(scoreAll(createLoadAwareScorer(), request(), state)).toEqual([0.5, 0.375, 0.25, 0, 0]);
  });
});

describe('precise-prefix-cache', () => {
  it('min-max normalises the cached leading blocks of each instance', () => {
    const req = request({ blockHashes: [1, 2, 3, 4] });
    const state = routerState(
      snapshots(
        { cached: [] },
        { cached: [1, 2] },
        { cached: [1, 2, 3, 4] },
        { cached: [2, 3, 4] },
      ),
    );
    expect(scoreAll(createPrecisePrefixCacheScorer(), req, state)).toEqual([0, 0.5, 1, 0]);
  });
  it('scores everyone 1 when all hit counts are equal, including all zero', () => {
    const req = request({ blockHashes: [1, 2, 3] });
    const equal = routerState(snapshots({ cached: [1] }, { cached: [1, 9] }));
    expect(scoreAll(createPrecisePrefixCacheScorer(), req, equal)).toEqual([1, 1]);
    const cold = routerState(snapshots({}, {}));
    expect(scoreAll(createPrecisePrefixCacheScorer(), req, cold)).toEqual([1, 1]);
  });
  it('asks no cache about a request whose first block is its own (sharedPrefixBlocks 0)', () => {
    const state = routerState(snapshots({ cached: [1] }, {}));
    let asked = 0;
    for (const s of state.instances) {
      const kv = s.kv;
      const cachedPrefixBlocks = (h: ArrayLike<number>): number => {
        asked++;
        return kv.cachedPrefixBlocks(h);
      };
      Object.defineProperty(s, 'kv', { value: { ...kv, cachedPrefixBlocks } });
    }
    expect(scoreAll(createPrecisePrefixCacheScorer(), request({ blockHashes: [7, 8], sharedPrefixBlocks: 0 }), state)).toEqual([1, 1]);
    expect(asked).toBe(0);
    // Any other value, or none, still asks: the shared blocks may be anywhere.
    expect(scoreAll(createPrecisePrefixCacheScorer(), request({ blockHashes: [1, 8], sharedPrefixBlocks: 1 }), state)).toEqual([1, 0]);
    expect(scoreAll(createPrecisePrefixCacheScorer(), request({ blockHashes: [1, 8] }), state)).toEqual([1, 0]);
    expect(asked).toBe(4);
  });
});

describe('prefix-affinity', () => {
  it('scores the proportion of leading blocks found, and learns from observe', () => {
    const scorer = createPrefixAffinityScorer();
    const state = routerState(snapshots({}, {}));
    const a = request({ index: 0, blockHashes: [1, 2, 3, 4] });
    expect(scoreAll(scorer, a, state)).toEqual([0, 0]);
    scorer.observe?.(a, 0, state);

    expect(scoreAll(scorer, request({ index: 1, blockHashes: [1, 2, 9] }), state)).toEqual([
      2 / 3,
      0,
    ]);
    // Consecutive from the start: a hit after a miss does not count.
    expect(scoreAll(scorer, request({ index: 2, blockHashes: [5, 1, 2] }), state)).toEqual([0, 0]);
    expect(
      scoreAll(scorer, request({ index: 3, blockHashes: [1, 2, 3, 4, 5, 6, 7, 8] }), state),
    ).toEqual([0.5, 0]);
  });
  it('scores 0 for a request without a full block', () => {
    const scorer = createPrefixAffinityScorer();
    const state = routerState(snapshots({}, {}));
    scorer.observe?.(request({ blockHashes: [1] }), 1, state);
    expect(scoreAll(scorer, request({ blockHashes: [] }), state)).toEqual([0, 0]);
  });
  it('keys its index by instance id, not position', () => {
    const scorer = createPrefixAffinityScorer();
    const wide = routerState(snapshots({ index: 5 }, { index: 7 }));
    const req = request({ blockHashes: [1, 2] });
    scorer.observe?.(req, 1, wide); // position 1 = instance 7
    const narrow = routerState(snapshots({ index: 7 }));
    expect(scoreAll(scorer, req, narrow)).toEqual([1]);
    expect(scorer.index.blockCount(7)).toBe(2);
    expect(scorer.index.blockCount(5)).toBe(0);
  });
});

describe('PrefixCacheIndex', () => {
  it('evicts the least recently recorded block at capacity', () => {
    const idx = new PrefixCacheIndex(3);
    idx.record([1, 2, 3, 4], 0); // 1 evicted
    expect(idx.blockCount(0)).toBe(3);
    expect(idx.matchLength([1, 2], 0)).toBe(0);
    expect(idx.matchLength([2, 3, 4], 0)).toBe(3);
    idx.record([2], 0); // refresh 2: LRU order is now 3, 4, 2
    idx.record([5], 0); // evicts 3
    expect(idx.matchLength([3], 0)).toBe(0);
    expect(idx.matchLength([2], 0)).toBe(1);
    expect(idx.matchLength([4, 5], 0)).toBe(2);
  });
  it('defaults to 10,000 blocks per instance in the scorer', () => {
    expect(createPrefixAffinityScorer().index.capacity).toBe(10_000);
    expect(createPrefixAffinityScorer({ lruCapacity: 7 }).index.capacity).toBe(7);
  });
});

describe('no-hit-lru', () => {
  it('ranks cold requests by least recent cold routing; warm requests score 0.5', () => {
    const scorer = createNoHitLruScorer();
    const cold = routerState(snapshots({}, {}, {}));
    const r0 = request({ index: 0, blockHashes: [1] });
    expect(scoreAll(scorer, r0, cold)).toEqual([1, 0.5, 0]);
    scorer.observe?.(r0, 0, cold);

    const r1 = request({ index: 1, blockHashes: [2] });
    expect(scoreAll(scorer, r1, cold)).toEqual([0, 1, 0.5]);
    scorer.observe?.(r1, 1, cold);

    const r2 = request({ index: 2, blockHashes: [3] });
    expect(scoreAll(scorer, r2, cold)).toEqual([0.5, 0, 1]);

    // Warm: instance 2 holds the first block. Neutral scores, and observe changes nothing.
    const warm = routerState(snapshots({}, {}, { cached: [4] }));
    const r3 = request({ index: 3, blockHashes: [4, 5] });
    expect(scoreAll(scorer, r3, warm)).toEqual([0.5, 0.5, 0.5]);
    scorer.observe?.(r3, 0, warm);

    const r4 = request({ index: 4, blockHashes: [6] });
    expect(scoreAll(scorer, r4, cold)).toEqual([0.5, 0, 1]);
  });
  it('takes a request whose first block is its own (sharedPrefixBlocks 0) as cold without asking', () => {
    const warm = routerState(snapshots({ cached: [4] }, {}));
    for (const s of warm.instances) Object.defineProperty(s, 'kv', { value: { ...s.kv, cachedPrefixBlocks: () => expect.unreachable('a cache was asked') } });
    expect(scoreAll(createNoHitLruScorer(), request({ blockHashes: [5], sharedPrefixBlocks: 0 }), warm)).toEqual([1, 0]);
  });
  it('gives a single instance 1', () => {
    const scorer = createNoHitLruScorer();
    expect(scoreAll(scorer, request(), routerState(snapshots({})))).toEqual([1]);
  });
});
