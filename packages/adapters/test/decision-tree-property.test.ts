import { listPolicies, policyContext, type AdmissionPolicy, type AutoScalePolicy, type PriorityPolicy, type RoutingPolicy } from '@blis/policies';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { DECISION_TREE_SIGNALS, type DecisionTreeKind, type DecisionTreeSignal, decisionTreePolicyFactory, parseDecisionTree } from '../src/index.js';
import { instance, replica, request, scaleContext, state } from './decision-tree-views.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// Random valid trees, written as YAML text, parse without error and always decide validly.

const signals = (kind: DecisionTreeKind, accept: (s: DecisionTreeSignal) => boolean) =>
  Object.entries(DECISION_TREE_SIGNALS[kind]).filter(([, s]) => accept(s));

const numberValue = fc.oneof(fc.integer({ min: -5, max: 5000 }), fc.double({ min: -2, max: 2, noNaN: true }));

function comparison(kind: DecisionTreeKind, instances: boolean) {
  const pool = signals(kind, (s) => instances || !s.instance);
  return fc.constantFrom(...pool).chain(([name, s]) => {
    const one =
      s.type === 'number' ? numberValue : s.type === 'boolean' ? fc.boolean() : s.values !== undefined ? fc.constantFrom(...s.values) : fc.constantFrom('', 'a', 'b', 't', 'gold');
    const ops = s.type === 'number' ? (['<', '<=', '>', '>=', '==', '!=', 'in'] as const) : s.type === 'string' ? (['==', '!=', 'in'] as const) : (['==', '!='] as const);
    return fc.constantFrom(...ops).chain((op) =>
      (op === 'in' ? fc.array(one as fc.Arbitrary<unknown>, { minLength: 1, maxLength: 3 }) : (one as fc.Arbitrary<unknown>)).map((value) => ({ signal: name, op, value })),
    );
  });
}

function condition(kind: DecisionTreeKind, instances = false): fc.Arbitrary<unknown> {
  return fc.letrec<{ c: unknown }>((tie) => ({
    c: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      comparison(kind, instances),
      fc.array(tie('c'), { minLength: 1, maxLength: 3 }).map((all) => ({ all })),
      fc.array(tie('c'), { minLength: 1, maxLength: 3 }).map((any) => ({ any })),
      tie('c').map((not) => ({ not })),
    ),
  })).c;
}

const numericPriority = signals('priority', (s) => s.type === 'number').map(([n]) => n);
const instanceSignals = signals('routing', (s) => s.instance === true).map(([n]) => n);
const scorerNames = listPolicies().scorer;

const LEAVES: Record<DecisionTreeKind, fc.Arbitrary<unknown>> = {
  admission: fc.oneof(fc.constant({ admit: true }), fc.constantFrom('a', 'overload').map((reject) => ({ reject }))),
  priority: fc.oneof(
    fc.integer({ min: -100, max: 100 }).map((priority) => ({ priority })),
    fc.record({ signal: fc.constantFrom(...numericPriority), scale: fc.double({ min: -1, max: 1, noNaN: true }), offset: fc.integer({ min: -10, max: 10 }) }).map((priority) => ({ priority })),
  ),
  routing: fc.oneof(
    fc.record({ route: fc.constantFrom('least', 'most'), by: fc.constantFrom(...instanceSignals) }),
    fc.record({ route: fc.constantFrom('least', 'most'), by: fc.constantFrom(...instanceSignals), where: condition('routing', true) }),
    fc.uniqueArray(fc.constantFrom(...scorerNames), { minLength: 1, maxLength: 3 }).chain((names) =>
      fc.tuple(...names.map(() => fc.integer({ min: 1, max: 5 }))).map((ws) => ({ route: 'weighted', scorers: Object.fromEntries(names.map((n, i) => [n, ws[i]])) })),
    ),
  ),
  autoscaler: fc.oneof(fc.integer({ min: -3, max: 3 }).map((scale) => ({ scale })), fc.integer({ min: 0, max: 10 }).map((target) => ({ target }))),
};

function tree(kind: DecisionTreeKind): fc.Arbitrary<unknown> {
  return fc.letrec<{ t: unknown }>((tie) => ({
    // biome-ignore lint/suspicious/noThenProperty: a branch's own key (a non-callable then is no thenable)
    t: fc.oneof({ depthSize: 'small', withCrossShrink: true }, LEAVES[kind], fc.record({ if: condition(kind), then: tie('t'), else: tie('t') })),
  })).t;
}

const requestArb = fc
  .record({
    arrivalUs: fc.integer({ min: 0, max: 1e7 }),
    inputTokens: fc.integer({ min: 1, max: 8000 }),
    tenantId: fc.constantFrom('a', 'b', 'gold'),
    sloClass: fc.constantFrom('critical', 'standard', 'sheddable', 'batch', 'background', ''),
    streaming: fc.boolean(),
    priority: fc.integer({ min: -5, max: 5 }),
    blockHashes: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 4 }),
  })
  .map((r) => request(r));

const instancesArb = fc.array(
  fc.record({
    queueDepth: fc.integer({ min: 0, max: 20 }),
    batchSize: fc.integer({ min: 0, max: 8 }),
    inFlightRequests: fc.integer({ min: 0, max: 30 }),
    kvUtilization: fc.double({ min: 0, max: 1, noNaN: true }),
    cached: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 4 }),
  }),
  { minLength: 1, maxLength: 6 },
);

const stateArb = fc
  .tuple(instancesArb, fc.integer({ min: 0, max: 1e7 }), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 9 }))
  .map(([xs, nowUs, globalInFlight, tenantInFlight]) => state(xs.map((x, i) => instance(i, x)), { nowUs, globalInFlight, tenantInFlight }));

const scaleArb = fc
  .record({
    n: fc.integer({ min: 0, max: 5 }),
    avgQueueDepth: fc.double({ min: 0, max: 20, noNaN: true }),
    waitingRequests: fc.integer({ min: 0, max: 10 }),
    sloAttainment: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
    timeSinceLastScaleUs: fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 0, max: 1e8 })),
  })
  .map(({ n, ...rest }) => scaleContext({ ...rest, replicas: Array.from({ length: n }, (_, i) => replica(i, { state: i % 2 === 0 ? 'active' : 'warming-up' })) }));

function policyOf<P>(doc: unknown, kind: DecisionTreeKind, n = 6): P {
  const text = stringify({ kind, tree: doc });
  return decisionTreePolicyFactory(parseDecisionTree(text, { kind }))(policyContext({ numInstances: n })) as P;
}

describe('decision-tree properties', () => {
  it('routing: any valid tree parses and routes to a position within range', () => {
    fc.assert(
      fc.property(tree('routing'), fc.array(fc.tuple(requestArb, stateArb), { minLength: 1, maxLength: 5 }), (t, cases) => {
        const p = policyOf<RoutingPolicy>(t, 'routing');
        for (const [r, s] of cases) {
          const d = p.route(r, s);
          expect(Number.isInteger(d.instance)).toBe(true);
          expect(d.instance).toBeGreaterThanOrEqual(0);
          expect(d.instance).toBeLessThan(s.instances.length);
          expect(d.reason).toMatch(/^decision-tree tree/);
        }
      }),
      { numRuns: propertyRuns(150) },
    );
  });

  it('a least leaf picks a smallest value, the lowest position among equals', () => {
    fc.assert(
      fc.property(fc.constantFrom(...instanceSignals), requestArb, stateArb, (by, r, s) => {
        const d = policyOf<RoutingPolicy>({ route: 'least', by }, 'routing').route(r, s);
        const values = s.instances.map((_, i) => referenceValue(by, r, s, i));
        for (let i = 0; i < values.length; i++) {
          expect(values[d.instance] <= values[i]).toBe(true);
          if (i < d.instance) expect(values[i]).toBeGreaterThan(values[d.instance]);
        }
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('admission, priority and autoscaler trees always give a well-formed decision', () => {
    fc.assert(
      fc.property(tree('admission'), requestArb, stateArb, (t, r, s) => {
        const d = policyOf<AdmissionPolicy>(t, 'admission').admit(r, s);
        expect(typeof d.admit).toBe('boolean');
        expect(d.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: propertyRuns(100) },
    );
    fc.assert(
      fc.property(tree('priority'), requestArb, fc.integer({ min: 0, max: 2e7 }), (t, r, now) => {
        expect(Number.isFinite(policyOf<PriorityPolicy>(t, 'priority').priority(r, now))).toBe(true);
      }),
      { numRuns: propertyRuns(100) },
    );
    fc.assert(
      fc.property(tree('autoscaler'), scaleArb, (t, ctx) => {
        const d = policyOf<AutoScalePolicy>(t, 'autoscaler').evaluate(ctx);
        expect(Number.isInteger(d.delta)).toBe(true);
      }),
      { numRuns: propertyRuns(100) },
    );
  });
});

/** What `by` means for position `i`, computed from the views independently of the getters. */
function referenceValue(by: string, r: ReturnType<typeof request>, s: ReturnType<typeof state>, i: number): number {
  const x = s.instances[i];
  switch (by) {
    case 'instance.index':
      return x.index;
    case 'instance.queue_depth':
      return x.queueDepth;
    case 'instance.batch_size':
      return x.batchSize;
    case 'instance.in_flight_requests':
      return x.inFlightRequests;
    case 'instance.load':
      return x.queueDepth + x.batchSize + x.inFlightRequests;
    case 'instance.kv_utilization':
      return x.kvUtilization;
    case 'instance.free_kv_blocks':
      return x.freeKVBlocks;
    case 'instance.total_kv_blocks':
      return x.totalKVBlocks;
    case 'instance.cache_hit_rate':
      return x.cacheHitRate;
    case 'instance.prefix_hit_blocks':
      return x.kv.cachedPrefixBlocks(r.blockHashes);
    case 'instance.prefix_hit_ratio':
      return r.blockHashes.length === 0 ? 0 : x.kv.cachedPrefixBlocks(r.blockHashes) / r.blockHashes.length;
    case 'instance.snapshot_age_us':
      return s.nowUs - x.snapshotTimeUs;
    case 'instance.adapter_resident':
      return r.adapter !== undefined && r.adapter !== '' && x.residentAdapters?.has(r.adapter) === true ? 1 : 0;
  }
  throw new Error(`no reference value for ${by}`);
}
