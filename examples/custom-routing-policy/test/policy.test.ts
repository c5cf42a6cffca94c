// Unit tests of the policy on hand-built, frozen views typed by the @blis/policies contract.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  InstanceSnapshot,
  KVCacheView,
  PolicyFactoryContext,
  RandomSource,
  RequestView,
  RouterState,
  RoutingFactory,
} from '@blis/policies';
import { policyContext, seededRandomSource } from '@blis/policies';
import factory, { createPowerOfTwoChoices, POLICY_NAME } from '../src/index.js';

/** A KV cache that holds exactly `held` block hashes. */
function kvHolding(held: readonly number[]): KVCacheView {
  const set = new Set(held);
  return Object.freeze({
    totalBlocks: 100,
    usedBlocks: held.length,
    freeBlocks: 100 - held.length,
    blockSizeTokens: 16,
    cachedPrefixBlocks(hashes: ArrayLike<number>): number {
      let n = 0;
      while (n < hashes.length && set.has(hashes[n])) n++;
      return n;
    },
  });
}

interface InstanceSpec {
  /** Effective load is queueDepth + batchSize + inFlightRequests; put it all in queueDepth. */
  load: number;
  cached?: readonly number[];
  /** Instance id; defaults to the position. */
  index?: number;
}

function snapshot(spec: InstanceSpec, position: number): InstanceSnapshot {
  return Object.freeze({
    index: spec.index ?? position,
    id: `instance_${spec.index ?? position}`,
    queueDepth: spec.load,
    batchSize: 0,
    kvUtilization: 0,
    freeKVBlocks: 100,
    totalKVBlocks: 100,
    cacheHitRate: 0,
    inFlightRequests: 0,
    snapshotTimeUs: 0,
    kv: kvHolding(spec.cached ?? []),
  });
}

function routerState(instances: readonly InstanceSpec[]): RouterState {
  return Object.freeze({
    nowUs: 0,
    instances: Object.freeze(instances.map(snapshot)),
    globalInFlight: 0,
    recentRate: 0,
    saturation: 0,
    tenant: (tenantId: string) => ({ tenantId, requests: 0, inFlight: 0, recentRate: 0 }),
  });
}

function request(blockHashes: readonly number[] = []): RequestView {
  return Object.freeze({
    index: 0,
    id: '0',
    arrivalUs: 0,
    inputTokens: 16 * blockHashes.length + 5,
    clientId: '',
    tenantId: '',
    sloClass: '',
    sessionId: '',
    roundIndex: 0,
    prefixGroup: '',
    streaming: false,
    blockHashes: Object.freeze([...blockHashes]),
    priority: 0,
    sloTargetUs: 0,
  });
}

/** A RandomSource replaying fixed `nextInt` results, so a test decides which instances are sampled. */
function scripted(ints: readonly number[]): RandomSource {
  let i = 0;
  return {
    next: () => 0,
    nextInt: (n: number) => {
      const v = ints[i++ % ints.length];
      assert.ok(v >= 0 && v < n, `scripted nextInt(${n}) -> ${v} is out of range`);
      return v;
    },
  };
}

function ctx(random: RandomSource, params: Record<string, unknown> = {}, numInstances = 4): PolicyFactoryContext {
  return policyContext({ numInstances, random, params });
}

describe(POLICY_NAME, () => {
  it('is the default export, typed as a RoutingFactory', () => {
    const f: RoutingFactory = factory;
    assert.equal(f, createPowerOfTwoChoices);
    assert.equal(f(policyContext()).name, POLICY_NAME);
  });

  it('sends the request to the less loaded of the two sampled instances', () => {
    // Positions [0,1,2,3]; nextInt(4)=3 samples position 3, then nextInt(3)=0 samples position 1
    // (the shuffle moved position 0 to slot 3), so the choice is between 3 (load 7) and 1 (load 2).
    const policy = createPowerOfTwoChoices(ctx(scripted([3, 0])));
    const d = policy.route(request(), routerState([{ load: 0 }, { load: 2 }, { load: 9 }, { load: 7 }]));
    assert.equal(d.instance, 1);
    assert.match(d.reason, /^power-of-two-choices \(of 2: load=2\)$/);
    assert.equal(d.scores, undefined, 'P2C ranks two instances, not all of them: no scores');
  });

  it('never looks beyond its sample, even when an idle instance exists', () => {
    // Samples positions 2 and 3 (nextInt(4)=2, then nextInt(3)=2 -> slot 3, still holding 3):
    // positions 0 and 1 are idle but unseen.
    const policy = createPowerOfTwoChoices(ctx(scripted([2, 2])));
    const d = policy.route(request(), routerState([{ load: 0 }, { load: 0 }, { load: 5 }, { load: 4 }]));
    assert.equal(d.instance, 3);
  });

  it('breaks a load tie by the longer cached prefix, then by the lower position', () => {
    const state = routerState([{ load: 1 }, { load: 1, cached: [11] }, { load: 1, cached: [11, 12] }, { load: 3 }]);
    // Samples 0 and 2 (nextInt(4)=0, nextInt(3)=1): equal load, position 2 holds two leading blocks.
    const withPrefix = createPowerOfTwoChoices(ctx(scripted([0, 1]))).route(request([11, 12, 13]), state);
    assert.equal(withPrefix.instance, 2);
    assert.match(withPrefix.reason, /cached=2/);
    // Samples 2 and 0 in the other order: same answer.
    assert.equal(createPowerOfTwoChoices(ctx(scripted([2, 1]))).route(request([11, 12, 13]), state).instance, 2);
    // No blocks in the request: nothing is cached anywhere, the lower position wins.
    assert.equal(createPowerOfTwoChoices(ctx(scripted([2, 1]))).route(request([]), state).instance, 0);
  });

  it('returns a position in state.instances, not an instance id', () => {
    const state = routerState([{ load: 4, index: 7 }, { load: 1, index: 3 }]);
    const d = createPowerOfTwoChoices(ctx(seededRandomSource(1), {}, 2)).route(request(), state);
    assert.equal(d.instance, 1);
  });

  it('with two instances always compares both, i.e. is least-loaded', () => {
    const policy = createPowerOfTwoChoices(ctx(seededRandomSource(5), {}, 2));
    for (let i = 0; i < 50; i++) {
      assert.equal(policy.route(request(), routerState([{ load: 3 }, { load: 2 }])).instance, 1);
      assert.equal(policy.route(request(), routerState([{ load: 1 }, { load: 2 }])).instance, 0);
    }
  });

  it('routes a single instance to position 0 and rejects an empty pool', () => {
    const policy = createPowerOfTwoChoices(ctx(seededRandomSource(0), {}, 1));
    assert.equal(policy.route(request(), routerState([{ load: 100 }])).instance, 0);
    assert.throws(() => policy.route(request(), routerState([])), /no instances/);
  });

  it('samples distinct instances, uniformly', () => {
    // choices: 1 is uniform random routing; over many decisions every position is picked about equally.
    const policy = createPowerOfTwoChoices(ctx(seededRandomSource(42), { choices: 1 }));
    const state = routerState([{ load: 0 }, { load: 0 }, { load: 0 }, { load: 0 }]);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[policy.route(request(), state).instance]++;
    for (const c of counts) assert.ok(c > 850 && c < 1150, `counts ${counts}`);
    // choices = n samples everything: the least-loaded instance always wins.
    const all = createPowerOfTwoChoices(ctx(seededRandomSource(42), { choices: 4 }));
    const skewed = routerState([{ load: 3 }, { load: 2 }, { load: 1 }, { load: 4 }]);
    for (let i = 0; i < 20; i++) assert.equal(all.route(request(), skewed).instance, 2);
  });

  it('is deterministic for a given random stream', () => {
    const state = routerState([{ load: 2 }, { load: 1 }, { load: 3 }, { load: 1 }, { load: 0 }]);
    const run = () => {
      const policy = createPowerOfTwoChoices(ctx(seededRandomSource(7), {}, 5));
      return Array.from({ length: 30 }, () => policy.route(request(), state).instance);
    };
    assert.deepEqual(run(), run());
  });

  it('validates its parameters', () => {
    assert.throws(() => createPowerOfTwoChoices(ctx(seededRandomSource(0), { choices: 0 })), /choices must be an integer >= 1, found 0/);
    assert.throws(() => createPowerOfTwoChoices(ctx(seededRandomSource(0), { choices: 1.5 })), /choices/);
    assert.throws(() => createPowerOfTwoChoices(ctx(seededRandomSource(0), { choice: 2 })), /unknown parameter "choice"/);
  });
});
