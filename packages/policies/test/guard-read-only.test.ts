import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AutoScaleContext,
  type AutoScalePolicy,
  createPolicyRegistry,
  guardPolicy,
  type InstanceScheduler,
  type InstanceSnapshot,
  PolicyError,
  policyContext,
  type RequestView,
  type RouterState,
  type RoutingDecision,
  type RoutingPolicy,
  seededRandomSource,
} from '../src/index.js';
import { entry, request, routerState, snapshots } from '../src/testing/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

const r17 = request({ index: 17, id: 'r17', blockHashes: new Uint32Array([1, 2, 3]) as unknown as number[] });
const fresh = () => routerState(snapshots({ cached: [1] }, {}, { queueDepth: 4 }, {}), { nowUs: 1200, tenants: { t: { inFlight: 2 } } });

/** A routing policy that does `act` to its inputs, then routes to 0. */
const writer = (act: (r: RequestView, s: RouterState) => void): RoutingPolicy => ({
  name: 'writer',
  route(r, s) {
    act(r, s);
    return { instance: 0, reason: '' };
  },
});

function problemOf(act: (r: RequestView, s: RouterState) => void): string {
  const p = guardPolicy('routing', writer(act), { readOnly: true });
  try {
    p.route(r17, fresh());
  } catch (e) {
    if (e instanceof PolicyError) return e.problem;
    throw e;
  }
  return 'no error';
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const w = <T>(v: T) => v as Mutable<T>;

describe('guardPolicy readOnly: writes are reported with their path', () => {
  it.each<[string, (r: RequestView, s: RouterState) => void, string]>([
    ['a snapshot field', (_r, s) => (w(s.instances[2]).queueDepth = 0), 'state.instances[2].queueDepth'],
    ['the state', (_r, s) => (w(s).nowUs = 0), 'state.nowUs'],
    ['the instances array', (_r, s) => (s.instances as InstanceSnapshot[]).push(s.instances[0]), 'state.instances[4]'],
    ['a sort of the instances', (_r, s) => (s.instances as InstanceSnapshot[]).sort((a, b) => b.index - a.index), 'state.instances[0]'],
    ['the request', (r) => (w(r).priority = 9), 'request.priority'],
    ['block hashes in place', (r) => (r.blockHashes as unknown as Uint32Array).fill(0), 'request.blockHashes.fill()'],
    ['a block hash', (r) => ((r.blockHashes as number[])[0] = 7), 'request.blockHashes[0]'],
    ['a tenant() result', (_r, s) => (w(s.tenant('t')).inFlight = 0), 'state.tenant().inFlight'],
    ['the KV view', (_r, s) => (w(s.instances[1].kv).usedBlocks = 3), 'state.instances[1].kv.usedBlocks'],
    ['a delete', (_r, s) => delete (s.instances[0] as Partial<Mutable<InstanceSnapshot>>).id, 'state.instances[0].id (delete)'],
    ['a defineProperty', (_r, s) => Object.defineProperty(s, 'saturation', { value: 0 }), 'state.saturation'],
    ['an element reached by iteration', (_r, s) => {
      for (const x of s.instances) w(x).batchSize = 1;
    }, 'state.instances[0].batchSize'],
    ['an element reached through map', (_r, s) => s.instances.map((x) => (w(x).kvUtilization = 1)), 'state.instances[0].kvUtilization'],
  ])('%s', (_what, act, path) => {
    expect(problemOf(act)).toBe(`wrote ${path}; the views a policy receives are read-only`);
  });

  it('reports the first write even when the policy catches it, with the policy and the decision', () => {
    const p = guardPolicy(
      'routing',
      writer((_r, s) => {
        try {
          w(s.instances[2]).queueDepth = 0;
        } catch {}
        w(s).nowUs = 0;
      }),
      { readOnly: true, source: './w.mjs' },
    );
    const live = fresh();
    expect(() => p.route(r17, live)).toThrow('routing policy "writer" (./w.mjs): route() for request 17 ("r17") at 1200 µs: wrote state.instances[2].queueDepth');
    expect(live.instances[2].queueDepth).toBe(4);
    expect(live.nowUs).toBe(1200);
  });

  it('leaves the policy its own copies: arrays it builds from views are writable', () => {
    expect(
      problemOf((_r, s) => {
        const depths = s.instances.map((x) => x.queueDepth);
        depths.sort((a, b) => b - a);
        const copy = Array.from(s.instances);
        copy.reverse();
        const mine = (s.instances as InstanceSnapshot[]).filter((x) => x.queueDepth > 0);
        mine.pop();
        const spread = { ...s.instances[0] };
        spread.queueDepth = 9;
      }),
    ).toBe('no error');
  });

  it('reads work as on the live objects: queries, typed arrays, tenant(), iteration', () => {
    const seen: unknown[] = [];
    const p = guardPolicy(
      'routing',
      writer((r, s) => {
        seen.push(s.instances[0].kv.cachedPrefixBlocks(r.blockHashes), Array.from(r.blockHashes), s.tenant('t').inFlight, [...s.instances].length, JSON.stringify(s.instances[3].id));
        seen.push(Array.isArray(s.instances), s.instances.length, Object.keys(s.instances[0]).length);
      }),
      { readOnly: true },
    );
    p.route(r17, fresh());
    expect(seen).toEqual([1, [1, 2, 3], 2, 4, '"instance_3"', true, 4, 11]);
  });

  it('hands out the same view of an object every time, so a policy may key maps by them', () => {
    const ids = new Set<unknown>();
    const p = guardPolicy(
      'routing',
      writer((r, s) => {
        ids.add(s.instances[1]);
        ids.add(r);
      }),
      { readOnly: true },
    );
    const s = fresh();
    p.route(r17, s);
    p.route(r17, s);
    expect(ids.size).toBe(2);
  });

  it('without readOnly the live objects are passed', () => {
    let got: RouterState | undefined;
    const s = fresh();
    guardPolicy('routing', writer((_r, st) => (got = st))).route(r17, s);
    expect(got).toBe(s);
  });

  it('scheduler entries and context, autoscaler replicas and history are read-only too', () => {
    const sched = guardPolicy(
      'scheduler',
      {
        name: 'q',
        compare: (a) => {
          w(a).enqueueSeq = 0;
          return 0;
        },
      } as InstanceScheduler,
      { readOnly: true },
    );
    expect(() => sched.compare!(entry({ index: 1 }, 3), entry({ index: 2 }, 4), { nowUs: 0, instanceIndex: 0, queueDepth: 2, batchSize: 0 })).toThrow('wrote a.enqueueSeq');
    const ctx = { nowUs: 5, pool: 'monolithic', replicas: [{ queueDepth: 1 }], history: [{ replicas: 1 }] } as unknown as AutoScaleContext;
    const scaler = (act: (c: AutoScaleContext) => void) =>
      guardPolicy(
        'autoscaler',
        {
          name: 'a',
          evaluate: (c) => {
            act(c);
            return { delta: 0, reason: '' };
          },
        } as AutoScalePolicy,
        { readOnly: true },
      );
    expect(() => scaler((c) => (w(c.replicas[0]).queueDepth = 0)).evaluate(ctx)).toThrow('wrote ctx.replicas[0].queueDepth');
    expect(() => scaler((c) => (c.history as unknown[]).shift()).evaluate(ctx)).toThrow('wrote ctx.history');
  });
});

// Every built-in policy, behind read-only views, decides exactly as it does on the live objects:
// the views change nothing a policy can read, and no built-in writes to its inputs.
const registry = createPolicyRegistry();
const snapshotArb = fc.record({
  queueDepth: fc.nat(50),
  batchSize: fc.nat(16),
  inFlightRequests: fc.nat(60),
  kvUtilization: fc.double({ min: 0, max: 1, noNaN: true }),
  cached: fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { maxLength: 6 }),
});
const stepArb = fc.record({
  instances: fc.array(snapshotArb, { minLength: 1, maxLength: 6 }),
  nowUs: fc.nat(1_000_000),
  index: fc.nat(100),
  hashes: fc.array(fc.integer({ min: 1, max: 8 }), { maxLength: 6 }),
  sessionId: fc.constantFrom('', 's1', 's2'),
  sloClass: fc.constantFrom('critical', 'standard', 'batch', ''),
});

describe('guardPolicy readOnly: built-in policies are unaffected (property)', () => {
  it('routing and priority policies (weighted with its scorers included) give the same answers behind views', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 10 }), (steps) => {
        // Each policy gets its own random source, seeded alike: routers that break ties with a
        // draw (weighted, least-loaded) must see the same stream, not share one.
        const freshCtx = () => policyContext({ numInstances: 4, random: seededRandomSource(7) });
        const ctx = freshCtx();
        for (const name of registry.names('routing')) {
          const raw = registry.createRoutingPolicy(name, freshCtx());
          const viewed = guardPolicy('routing', registry.createRoutingPolicy(name, freshCtx()), { readOnly: true });
          for (const s of steps) {
            const st = routerState(snapshots(...s.instances), { nowUs: s.nowUs });
            const req = request({ index: s.index, id: `r${s.index}`, blockHashes: s.hashes, sessionId: s.sessionId, sloClass: s.sloClass });
            const a: RoutingDecision = raw.route(req, st);
            const b: RoutingDecision = viewed.route(req, st);
            expect([name, b.instance, b.reason]).toEqual([name, a.instance, a.reason]);
          }
        }
        for (const name of registry.names('priority')) {
          const raw = registry.createPriorityPolicy(name, ctx);
          const viewed = guardPolicy('priority', registry.createPriorityPolicy(name, ctx), { readOnly: true });
          for (const s of steps) {
            const req = request({ index: s.index, sloClass: s.sloClass, arrivalUs: 0 });
            expect(viewed.priority(req, s.nowUs)).toBe(raw.priority(req, s.nowUs));
          }
        }
      }),
      { numRuns: propertyRuns(60) },
    );
  });
});
