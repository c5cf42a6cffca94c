import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createPolicyRegistry,
  policyContext,
  type RequestView,
  type RouterState,
  type SchedulerEntry,
} from '../src/index.js';
import { deepFreeze, request, routerState, snapshots } from '../src/testing/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

const registry = createPolicyRegistry();
const SLO_CLASSES = ['critical', 'standard', 'sheddable', 'batch', 'background', '', 'other'];

// Zero and small counts are where the edge cases (all equal, empty queues) live.
const countArb = (max: number) => fc.oneof(fc.constant(0), fc.nat(4), fc.nat(max));

const snapshotArb = fc.record({
  queueDepth: countArb(300),
  batchSize: countArb(64),
  inFlightRequests: countArb(300),
  kvUtilization: fc.oneof(fc.constantFrom(0, 1), fc.double({ min: 0, max: 1, noNaN: true })),
  cached: fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 8 }),
});

const stateArb = fc
  .record({
    instances: fc.array(snapshotArb, { minLength: 1, maxLength: 8 }),
    nowUs: fc.nat(1_000_000_000),
    saturation: fc.double({ min: 0, max: 3, noNaN: true }),
    globalInFlight: fc.nat(1000),
    tenantInFlight: fc.nat(20),
  })
  .map((s) =>
    routerState(snapshots(...s.instances), {
      nowUs: s.nowUs,
      saturation: s.saturation,
      globalInFlight: s.globalInFlight,
      tenants: { a: { inFlight: s.tenantInFlight }, b: { inFlight: 0 } },
    }),
  );

const requestArb = fc
  .record({
    index: fc.nat(1000),
    blockHashes: fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 8 }),
    inputTokens: fc.integer({ min: 1, max: 20_000 }),
    sloClass: fc.constantFrom(...SLO_CLASSES),
    tenantId: fc.constantFrom('a', 'b', ''),
    sessionId: fc.constantFrom('', 's1', 's2'),
    arrivalUs: fc.nat(1_000_000_000),
    priority: fc.double({ min: -10, max: 10, noNaN: true }),
  })
  .map((r) => request(r));

const stepsArb = fc.array(fc.tuple(stateArb, requestArb, fc.nat()), {
  minLength: 1,
  maxLength: 12,
});

const REQUEST_KEYS = new Set(Object.keys(request()));

/**
 * A frozen request that also refuses to hand out anything a RequestView does not have, so a
 * policy that cast its way to an output length (INV-9) or wrote to its input would throw.
 */
function guardedRequest(r: RequestView): RequestView {
  const frozen = deepFreeze({ ...r, blockHashes: [...Array.from(r.blockHashes)] });
  return new Proxy(frozen, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && !REQUEST_KEYS.has(prop)) {
        throw new Error(`policy read RequestView.${prop}, which does not exist`);
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}

function frozenState(s: RouterState): RouterState {
  return deepFreeze({
    nowUs: s.nowUs,
    instances: s.instances.map((i) => ({ ...i })),
    globalInFlight: s.globalInFlight,
    recentRate: s.recentRate,
    saturation: s.saturation,
    tenant: (id: string) => deepFreeze(s.tenant(id)),
  });
}

describe('scorer range', () => {
  it('every scorer writes values in [0, 1] for any snapshots, observing as it goes', () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        for (const name of registry.names('scorer')) {
          const scorer = registry.createScorer(name, policyContext());
          for (const [state, req, pick] of steps) {
            const n = state.instances.length;
            const out = new Float64Array(n).fill(Number.NaN);
            scorer.score(req, state, out);
            for (let i = 0; i < n; i++) {
              if (!(out[i] >= 0 && out[i] <= 1)) {
                throw new Error(`${name} wrote ${out[i]} for instance ${i}`);
              }
            }
            scorer.observe?.(req, pick % n, state);
          }
        }
      }),
      { numRuns: propertyRuns(150) },
    );
  });
});

describe('no policy mutates its inputs or reads beyond RequestView', () => {
  it('admission, priority, routing, schedulers, scorers and deciders on frozen inputs', () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        const ctx = policyContext({ numInstances: 4 });
        const admissions = registry
          .names('admission')
          .map((n) =>
            registry.createAdmissionPolicy(
              n,
              n === 'tenant-quota' ? policyContext({ params: { maxInFlight: 10 } }) : ctx,
            ),
          );
        const priorities = registry
          .names('priority')
          .map((n) => registry.createPriorityPolicy(n, ctx));
        const routers = registry.names('routing').map((n) => registry.createRoutingPolicy(n, ctx));
        const schedulers = registry.names('scheduler').map((n) => registry.createScheduler(n, ctx));
        const scorers = registry.names('scorer').map((n) => registry.createScorer(n, ctx));
        const deciders = registry.names('decider').map((n) => registry.createDecider(n, ctx));
        let previous: SchedulerEntry | undefined;

        for (const [rawState, rawReq, pick] of steps) {
          const state = frozenState(rawState);
          const req = guardedRequest(rawReq);
          const before = JSON.stringify(state);
          const n = state.instances.length;

          for (const a of admissions) {
            const d = a.admit(req, state);
            expect(typeof d.admit).toBe('boolean');
          }
          for (const p of priorities)
            expect(Number.isFinite(p.priority(req, state.nowUs))).toBe(true);
          for (const r of routers) {
            const d = r.route(req, state);
            expect(Number.isInteger(d.instance) && d.instance >= 0 && d.instance < n).toBe(true);
            if (d.scores !== undefined) expect(d.scores.length).toBe(n);
          }
          for (const s of scorers) {
            s.score(req, state, new Float64Array(n));
            s.observe?.(req, pick % n, state);
          }
          for (const d of deciders) {
            expect(typeof d.decide(req, state, pick % n).disaggregate).toBe('boolean');
          }
          const current: SchedulerEntry = deepFreeze({ request: req, enqueueSeq: pick });
          if (previous !== undefined) {
            const sctx = deepFreeze({
              nowUs: state.nowUs,
              instanceIndex: 0,
              queueDepth: 2,
              batchSize: 0,
            });
            for (const s of schedulers) {
              const ab = s.compare?.(previous, current, sctx) ?? 0;
              const ba = s.compare?.(current, previous, sctx) ?? 0;
              expect(Math.sign(ab) + Math.sign(ba)).toBe(0);
            }
          }
          previous = current;
          expect(JSON.stringify(state)).toBe(before);
        }
      }),
      { numRuns: propertyRuns(100) },
    );
  });
});

describe('INV-9: a RequestView carries no output length', () => {
  it('at the type level', () => {
    type OutputKeys = Extract<
      keyof RequestView,
      `${string}utput${string}` | `${string}Output${string}`
    >;
    expectTypeOf<OutputKeys>().toBeNever();
    type LengthLike = Extract<
      keyof RequestView,
      `${string}${'decode' | 'completion' | 'generated' | 'maxTokens'}${string}`
    >;
    expectTypeOf<LengthLike>().toBeNever();
  });

  it('at the object level', () => {
    // `satisfies` ties this object to exactly the keys of RequestView.
    const full = {
      index: 0,
      id: '0',
      arrivalUs: 0,
      inputTokens: 1,
      clientId: '',
      tenantId: '',
      sloClass: '',
      sessionId: '',
      roundIndex: 0,
      prefixGroup: '',
      streaming: false,
      blockHashes: [],
      sharedPrefixBlocks: undefined,
      priority: 0,
      sloTargetUs: 0,
      adapter: '',
      modalities: undefined,
    } satisfies Record<keyof RequestView, unknown>;
    const keys = Object.keys(full);
    expect(keys.filter((k) => /output|decode|completion|generat|max_?tokens/i.test(k))).toEqual([]);
    expect(new Set(keys)).toEqual(REQUEST_KEYS);
  });

  it('the guard catches a policy that reaches for an output length', () => {
    const sneaky = (r: RequestView) => (r as unknown as { outputTokens: number }).outputTokens;
    expect(() => sneaky(guardedRequest(request()))).toThrow(/RequestView.outputTokens/);
  });
});
