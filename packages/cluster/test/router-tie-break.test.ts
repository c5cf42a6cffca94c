import { ArrayRequestSource, type RequestSpec } from '@blis/engine';
import { goSubsystemRand } from '@blis/workload/internal';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, type SimulationResult, simulate } from '../src/index.js';
import { spec } from './helpers.js';

// A simulation hands its routers BLIS's router stream: Go's math/rand seeded with the run seed
// XOR FNV-1a of the stream's name ('router'). A routing decision whose top score is shared by
// two or more instances draws Intn(ties) from it, once, and takes that tied instance in
// position order, so tied routing lands where BLIS's does. The expected instances below come
// from the Go stream itself (goSubsystemRand), not from the router.

const BASE = { latencyModel: 'blackbox', numInstances: 4, includeRequests: true } as const;

function run(cfg: SimulationConfigInput, specs: readonly RequestSpec[]): SimulationResult {
  return simulate({ ...BASE, ...cfg }, { source: new ArrayRequestSource(specs) });
}

const placed = (r: SimulationResult) => [...(r.requests ?? [])].sort((a, b) => Number(a.request_id) - Number(b.request_id)).map((x) => x.handled_by);

/** `instance_<Intn(n)>` for each `n`, drawn in turn from the Go stream `name` of `seed`. */
function goDraws(seed: bigint, name: string, ns: readonly number[]): string[] {
  const g = goSubsystemRand(seed, name);
  return ns.map((n) => `instance_${g.intn(n)}`);
}

describe('tied routing follows BLIS\'s router stream', () => {
  const one = [spec(0, 0, 200, 10)];

  it('seed 42, four idle instances: the first weighted decision draws Intn(4) = 2 from the router stream', () => {
    const [expected] = goDraws(42n, 'router', [4]);
    expect(expected).toBe('instance_2'); // what BLIS's Go stream gives for seed 42
    expect(placed(run({ seed: 42, routing: { policy: 'weighted' } }, one))).toEqual([expected]);
  });

  it('another seed draws from another stream', () => {
    for (const seed of [7, 1234]) {
      expect(placed(run({ seed, routing: { policy: 'weighted' } }, one))).toEqual(goDraws(BigInt(seed), 'router', [4]));
    }
  });

  it('least-loaded draws from the same stream', () => {
    expect(placed(run({ seed: 42, routing: { policy: 'least-loaded' } }, one))).toEqual(goDraws(42n, 'router', [4]));
  });

  it('round-robin never draws: the first request goes to instance 0', () => {
    expect(placed(run({ seed: 42, routing: { policy: 'round-robin' } }, one))).toEqual(['instance_0']);
  });

  it('two instances tied at t = 0: the draw is Intn(2)', () => {
    expect(placed(run({ seed: 42, numInstances: 2, routing: { policy: 'weighted' } }, one))).toEqual(goDraws(42n, 'router', [2]));
  });

  it('before the first snapshot refresh (50 ms) every default-profile decision is a four-way tie, one draw each', () => {
    // Four requests in the first 30 ms: the router's view is still the empty instances of t = 0
    // (waiting queues, KV and the prefix caches all as at the start), so each decision ties over
    // all four and consumes one Intn(4).
    const early = [0, 10_000, 20_000, 30_000].map((t, i) => spec(i, t, 200, 10));
    expect(placed(run({ seed: 42, routing: { policy: 'weighted' } }, early))).toEqual(goDraws(42n, 'router', [4, 4, 4, 4]));
  });

  it('the refresh clock starts at 0: a first decision at 30 ms does not refresh, the one at 60 ms does', () => {
    // Request 0 at 30 ms sees the t = 0 view (four-way tie, Intn(4)). At 60 ms a refresh is due
    // (60 - 0 >= 50): request 0 is running on its instance, whose KV utilisation now scores
    // below the three idle ones, which tie: Intn(3) over them in position order. (A clock
    // started at the first decision would have refreshed at 30 ms and not again before 80 ms,
    // leaving the 60 ms decision a four-way tie on a stale view.)
    const specs = [spec(0, 30_000, 200, 10), spec(1, 60_000, 200, 10)];
    const g = goSubsystemRand(42n, 'router');
    const first = g.intn(4);
    const others = [0, 1, 2, 3].filter((i) => i !== first);
    const second = others[g.intn(3)];
    const r = run({ seed: 42, routing: { policy: 'weighted' } }, specs);
    expect(placed(r)).toEqual([`instance_${first}`, `instance_${second}`]);
    // Request 0 is still running at 60 ms (the premise of the refreshed view).
    const r0 = (r.requests ?? []).find((x) => x.request_id === '0');
    expect((r0?.arrival_ms ?? 0) + (r0?.e2e_ms ?? 0)).toBeGreaterThan(60);
  });

  it('least-loaded counts requests in flight at once: each tie is over the instances not yet given one', () => {
    // Four requests at t = 0: the router's in-flight counts are its own (synchronous), so the
    // k-th decision ties over the 4 - k instances still at load 0.
    const burst = [0, 1, 2, 3].map((i) => spec(i, 0, 200, 10));
    const g = goSubsystemRand(42n, 'router');
    const free = ['instance_0', 'instance_1', 'instance_2', 'instance_3'];
    const expected: string[] = [];
    for (let k = 0; k < 4; k++) {
      const pick = free.length > 1 ? g.intn(free.length) : 0;
      expected.push(free[pick]);
      free.splice(pick, 1);
    }
    expect(placed(run({ seed: 42, routing: { policy: 'least-loaded' } }, burst))).toEqual(expected);
  });
});
