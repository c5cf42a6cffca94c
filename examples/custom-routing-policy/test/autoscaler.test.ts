// Unit tests of the slo-guard autoscaler, on frozen, hand-built AutoScaleContext objects typed by
// the @blis/policies contract. Every expected delta and reason is worked out by hand from the rule.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AutoScaleContext, AutoScaleFactory, AutoScalePolicy, ReplicaMetrics, ScaleDecision } from '@blis/policies';
import { createPolicyRegistry, policyContext } from '@blis/policies';
import factory, { AUTOSCALER_NAME, createSloGuardAutoscaler } from '../src/slo-guard-autoscaler.js';

const INTERVAL_US = 30_000_000;

/** A routable replica with the given load; the rest is an H100 with 160,000 KV tokens. */
function replica(index: number, load: { queueDepth?: number; inFlightRequests?: number } = {}): ReplicaMetrics {
  const queueDepth = load.queueDepth ?? 0;
  return Object.freeze({
    index,
    id: `instance_${index}`,
    state: 'active' as const,
    gpuType: 'H100',
    tp: 1,
    costPerHour: 0,
    queueDepth,
    batchSize: 0,
    inFlightRequests: load.inFlightRequests ?? queueDepth,
    kvUtilization: 0,
    totalKvCapacityTokens: 160_000,
    kvTokensInUse: 0,
    startUs: 0,
  });
}

interface Shape {
  /** Routable replicas: a count (idle) or the replicas themselves. */
  replicas?: number | readonly ReplicaMetrics[];
  pending?: number;
  minReplicas?: number;
  waiting?: number;
  attainment?: number | null;
  requestRate?: number;
  nowUs?: number;
  timeSinceLastScaleUs?: number;
}

/** A context whose aggregates agree with its replicas (currentReplicas = routable + pending). */
function context(s: Shape = {}): AutoScaleContext {
  const replicas = Object.freeze(
    typeof s.replicas === 'object' ? [...s.replicas] : Array.from({ length: s.replicas ?? 2 }, (_, i) => replica(i)),
  );
  const pending = s.pending ?? 0;
  const n = replicas.length;
  return Object.freeze({
    nowUs: s.nowUs ?? 0,
    pool: 'monolithic' as const,
    replicas,
    pendingReplicas: pending,
    pendingKvCapacityTokens: pending * 160_000,
    drainingReplicas: 0,
    currentReplicas: n + pending,
    minReplicas: s.minReplicas ?? 1,
    maxReplicas: Number.POSITIVE_INFINITY,
    avgQueueDepth: n > 0 ? replicas.reduce((a, r) => a + r.queueDepth, 0) / n : 0,
    avgKvUtilization: 0,
    waitingRequests: s.waiting ?? 0,
    requestRate: s.requestRate ?? 10,
    sloAttainment: s.attainment === undefined ? 1 : s.attainment,
    timeSinceLastScaleUs: s.timeSinceLastScaleUs ?? Number.POSITIVE_INFINITY,
    history: Object.freeze([]),
  });
}

/** Evaluates `shapes` in order, one interval apart, on one policy object; the decisions. */
function evaluateAll(policy: AutoScalePolicy, shapes: readonly Shape[]): ScaleDecision[] {
  return shapes.map((s, i) => policy.evaluate(context({ nowUs: i * INTERVAL_US, ...s })));
}

const make = (params: Record<string, unknown> = {}) => createSloGuardAutoscaler(policyContext({ params }));
const deltas = (ds: readonly ScaleDecision[]) => ds.map((d) => d.delta);
const reasons = (ds: readonly ScaleDecision[]) => ds.map((d) => d.reason);

describe(AUTOSCALER_NAME, () => {
  it('is the default export, typed as an AutoScaleFactory', () => {
    const f: AutoScaleFactory = factory;
    assert.equal(f, createSloGuardAutoscaler);
    assert.equal(f(policyContext()).name, AUTOSCALER_NAME);
  });

  it('scales up by ceil(currentReplicas x 0.5), at least 1, when attainment falls below the floor', () => {
    // currentReplicas -> ceil(n / 2): 1 -> 1 (the at-least-1 rule gives the same), 2 -> 1,
    // 3 -> 2, 4 -> 2, 5 -> 3, 10 -> 5.
    const expected: [number, number][] = [
      [1, 1],
      [2, 1],
      [3, 2],
      [4, 2],
      [5, 3],
      [10, 5],
    ];
    for (const [n, delta] of expected) {
      const d = make().evaluate(context({ replicas: n, attainment: 0.5 }));
      assert.equal(d.delta, delta, `${n} replicas`);
      assert.equal(d.reason, `attainment 0.500 < floor 0.900: +${delta}`);
    }
    assert.deepEqual(make().evaluate(context({ replicas: 3, attainment: 0.75 })).signals, {
      waiting: 0,
      pending: 0,
      avgQueue: 0,
      calmStreak: 0,
      attainment: 0.75,
    });
  });

  it('treats the floor as met: only attainment strictly below it is a breach', () => {
    assert.equal(make().evaluate(context({ attainment: 0.9 })).delta, 0);
    assert.equal(make().evaluate(context({ attainment: 0.8999 })).delta, 1);
    assert.equal(make().evaluate(context({ attainment: null })).delta, 0);
  });

  it('scales up on requests waiting for a replica, even with every target met', () => {
    assert.deepEqual(reasons([make().evaluate(context({ replicas: 4, waiting: 3 }))]), ['3 waiting: +2']);
    assert.equal(
      make().evaluate(context({ replicas: 4, waiting: 3, attainment: 0.5 })).reason,
      'attainment 0.500 < floor 0.900, 3 waiting: +2',
    );
    // Waiting requests are demand now: no arrival in the last second does not hold them.
    assert.equal(make().evaluate(context({ replicas: 4, waiting: 3, requestRate: 0 })).delta, 2);
  });

  it('holds a breach while more replicas cannot help yet', () => {
    // Pending replicas: 2 routable + 1 pending. (Without the hold: ceil(3 / 2) = +2.)
    assert.deepEqual(make().evaluate(context({ replicas: 2, pending: 1, attainment: 0.5 })), {
      delta: 0,
      reason: 'attainment 0.500 < floor 0.900, 1 pending: hold',
      signals: { waiting: 0, pending: 1, avgQueue: 0, calmStreak: 0, attainment: 0.5 },
    });
    // No arrival in the last second and nothing waiting: the misses are of requests already placed.
    assert.equal(
      make().evaluate(context({ replicas: 2, attainment: 0.5, requestRate: 0 })).reason,
      'attainment 0.500 < floor 0.900, no arrivals: hold',
    );
    // A scale action applied since the previous evaluation (at 40 s, seen at 60 s as 20 s ago):
    // this interval's attainment measured the old size. The next evaluation, with the same last
    // action (now 50 s ago), acts.
    const ds = evaluateAll(make(), [
      { replicas: 4, attainment: 1 },
      { replicas: 4, attainment: 0.5 },
      { replicas: 4, attainment: 0.5, timeSinceLastScaleUs: 20_000_000 },
      { replicas: 4, attainment: 0.5, timeSinceLastScaleUs: 50_000_000 },
    ]);
    assert.deepEqual(deltas(ds), [0, 2, 0, 2]);
    assert.equal(ds[2].reason, 'attainment 0.500 < floor 0.900, scaled since the last evaluation: hold');
  });

  it('scales down by 1 only after 4 consecutive calm evaluations with short queues', () => {
    const calm: Shape = { replicas: 3, attainment: 0.95 };
    const ds = evaluateAll(make(), [calm, calm, calm, calm, calm]);
    assert.deepEqual(deltas(ds), [0, 0, 0, -1, -1]);
    assert.deepEqual(reasons(ds), [
      'attainment 0.950, calm 1/4, queue 0.000: hold',
      'attainment 0.950, calm 2/4, queue 0.000: hold',
      'attainment 0.950, calm 3/4, queue 0.000: hold',
      'attainment 0.950, calm 4/4, queue 0.000: -1',
      // Not applied yet (a stabilization window, a cooldown): the signal persists.
      'attainment 0.950, calm 4/4, queue 0.000: -1',
    ]);
  });

  it('starts the calm count over after a scale action is applied', () => {
    const calm: Shape = { replicas: 3, attainment: 1 };
    // The action lands at 100 s (between the evaluations at 90 and 120 s): 20 s ago at 120 s.
    const scaled = (sinceUs: number): Shape => ({ ...calm, timeSinceLastScaleUs: sinceUs });
    const ds = evaluateAll(make(), [calm, calm, calm, calm, scaled(20e6), scaled(50e6), scaled(80e6), scaled(110e6)]);
    assert.deepEqual(deltas(ds), [0, 0, 0, -1, 0, 0, 0, -1]);
    assert.equal(ds[4].reason, 'attainment 1.000, calm 1/4, queue 0.000: hold');
  });

  it('breaks the calm streak on a miss, a waiting request, or a busy evaluation without attainment', () => {
    const calm: Shape = { replicas: 3, attainment: 0.95 };
    const busy = [replica(0, { inFlightRequests: 5 }), replica(1), replica(2)];
    for (const breaker of [
      { replicas: 3, attainment: 0.5, requestRate: 0 }, // a miss (held: no arrivals)
      { replicas: 3, waiting: 1, pending: 1 }, // a waiting request (held: pending)
      { replicas: busy, attainment: null }, // nothing completed, but requests in flight
    ] satisfies Shape[]) {
      const ds = evaluateAll(make(), [calm, calm, calm, breaker, calm, calm, calm, calm]);
      assert.deepEqual(deltas(ds), [0, 0, 0, 0, 0, 0, 0, -1], JSON.stringify(breaker));
      assert.equal(ds[3].signals?.calmStreak, 0);
    }
    // An idle group (nothing completed, nothing in flight) is calm.
    const idle: Shape = { replicas: 3, attainment: null };
    const ds = evaluateAll(make(), [idle, idle, idle, idle]);
    assert.deepEqual(deltas(ds), [0, 0, 0, -1]);
    assert.equal(ds[3].reason, 'attainment n/a, calm 4/4, queue 0.000: -1');
  });

  it('does not scale down while replicas queue 1 request or more on average', () => {
    const queued = (depths: number[]): Shape => ({ replicas: depths.map((q, i) => replica(i, { queueDepth: q })) });
    // Queues 2 and 0: mean 1, not below 1. Queues 1 and 0: mean 0.5.
    const held = evaluateAll(make(), [queued([2, 0]), queued([2, 0]), queued([2, 0]), queued([2, 0])]);
    assert.deepEqual(deltas(held), [0, 0, 0, 0]);
    assert.equal(held[3].reason, 'attainment 1.000, calm 4/4, queue 1.000: hold');
    const ds = evaluateAll(make(), [queued([2, 0]), queued([2, 0]), queued([2, 0]), queued([1, 0])]);
    assert.deepEqual(deltas(ds), [0, 0, 0, -1]);
  });

  it('never goes below minReplicas, pending replicas included', () => {
    const calm = (s: Shape): Shape[] => [s, s, s, s];
    const atMin = evaluateAll(make(), calm({ replicas: 2, minReplicas: 2 }));
    assert.deepEqual(deltas(atMin), [0, 0, 0, 0]);
    assert.equal(atMin[3].reason, 'attainment 1.000, calm 4/4, queue 0.000: at min replicas 2: hold');
    // 1 routable + 1 pending = 2 = minReplicas.
    assert.deepEqual(deltas(evaluateAll(make(), calm({ replicas: 1, pending: 1, minReplicas: 2 }))), [0, 0, 0, 0]);
    // 1 routable + 2 pending = 3 > 2: -1 (the cluster removes a pending replica first).
    assert.deepEqual(deltas(evaluateAll(make(), calm({ replicas: 1, pending: 2, minReplicas: 2 }))), [0, 0, 0, -1]);
    // Below the minimum already (the cluster will add): hold, never -1.
    assert.deepEqual(deltas(evaluateAll(make(), calm({ replicas: 1, minReplicas: 2 }))), [0, 0, 0, 0]);
    // minReplicas 0 lets an idle group go to zero.
    assert.deepEqual(deltas(evaluateAll(make(), calm({ replicas: 1, minReplicas: 0, attainment: null }))), [0, 0, 0, -1]);
  });

  it('scales from zero when requests wait and nothing is pending', () => {
    const p = make();
    assert.deepEqual(p.evaluate(context({ replicas: 0, minReplicas: 0, waiting: 5, attainment: null })), {
      delta: 1,
      reason: 'scale from zero: 5 waiting, no replica: +1',
      signals: { waiting: 5, pending: 0, avgQueue: 0, calmStreak: 0 },
    });
    assert.deepEqual(p.evaluate(context({ replicas: 0, minReplicas: 0, waiting: 5, pending: 1, attainment: null })), {
      delta: 0,
      reason: 'no replica, 1 pending: hold',
      signals: { waiting: 5, pending: 1, avgQueue: 0, calmStreak: 0 },
    });
    const idle = p.evaluate(context({ replicas: 0, minReplicas: 0, attainment: null }));
    assert.deepEqual([idle.delta, idle.reason], [0, 'no replica, nothing waiting: hold']);
  });

  it('keeps its calm streak per policy object (one per scaling group)', () => {
    const calm: Shape = { replicas: 3 };
    const decode = make();
    const prefill = make();
    assert.deepEqual(deltas(evaluateAll(decode, [calm, calm, calm])), [0, 0, 0]);
    assert.equal(prefill.evaluate(context({ ...calm, nowUs: 90e6 })).reason, 'attainment 1.000, calm 1/4, queue 0.000: hold');
    assert.equal(decode.evaluate(context({ ...calm, nowUs: 90e6 })).delta, -1);
  });

  it('takes floor and calm as parameters', () => {
    const lenient = make({ floor: 0.5 });
    assert.equal(lenient.evaluate(context({ attainment: 0.6 })).delta, 0);
    assert.equal(lenient.evaluate(context({ attainment: 0.4 })).reason, 'attainment 0.400 < floor 0.500: +1');
    assert.deepEqual(deltas(evaluateAll(make({ calm: 1 }), [{ replicas: 3 }])), [-1]);
    assert.deepEqual(deltas(evaluateAll(make({ floor: 1, calm: 2 }), [{ replicas: 3 }, { replicas: 3 }])), [0, -1]);
  });

  it('validates its parameters', () => {
    const build = (params: Record<string, unknown>) => () => make(params);
    assert.throws(build({ floor: 0 }), /params\.floor must be a number in \(0, 1\], found 0/);
    assert.throws(build({ floor: 1.5 }), /floor/);
    assert.throws(build({ floor: '0.9' }), /floor must be a number in \(0, 1\], found "0\.9"/);
    assert.throws(build({ floor: Number.NaN }), /floor/);
    assert.throws(build({ calm: 0 }), /params\.calm must be an integer >= 1, found 0/);
    assert.throws(build({ calm: 2.5 }), /calm/);
    assert.throws(build({ flor: 0.9 }), /unknown parameter "flor" \(known: floor, calm\)/);
  });

  it('can be registered by name next to the built-in autoscalers', () => {
    const registry = createPolicyRegistry();
    registry.registerAutoscaler(AUTOSCALER_NAME, createSloGuardAutoscaler);
    assert.deepEqual(registry.names('autoscaler'), [
      'queue-depth',
      AUTOSCALER_NAME,
      'target-utilization',
      'threshold',
      'wva-saturation',
    ]);
    const p = registry.createAutoscaler(AUTOSCALER_NAME, policyContext({ params: { floor: 0.99 } }));
    assert.equal(p.evaluate(context({ attainment: 0.98 })).delta, 1);
  });
});
