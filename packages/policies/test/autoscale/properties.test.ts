import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AutoScaleContext,
  type AutoScalePolicy,
  createPolicyRegistry,
  policyContext,
  type ReplicaMetrics,
} from '../../src/index.js';
import { createWvaSaturationAutoscaler } from '../../src/internal.js';
import { deepFreeze } from '../../src/testing/index.js';
import { context } from './helpers.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

const registry = createPolicyRegistry();

// Zero and small counts are where the edge cases live.
const countArb = (max: number) => fc.oneof(fc.constant(0), fc.nat(4), fc.nat(max));
const fraction = fc.oneof(fc.constantFrom(0, 1), fc.double({ min: 0, max: 1, noNaN: true }));

const replicaArb: fc.Arbitrary<Partial<ReplicaMetrics>> = fc
  .record({
    gpuType: fc.constantFrom('H100', 'A100', ''),
    tp: fc.constantFrom(1, 2, 4),
    costPerHour: fc.oneof(fc.constantFrom(0, 1.5, 4), fc.double({ min: 0, max: 10, noNaN: true })),
    queueDepth: countArb(300),
    batchSize: countArb(64),
    inFlightRequests: countArb(300),
    totalKvCapacityTokens: fc.oneof(fc.constantFrom(0, 160_000), fc.integer({ min: 1, max: 2_000_000 })),
    used: fraction,
    state: fc.constantFrom('active' as const, 'warming-up' as const),
  })
  .map(({ used, ...r }) => {
    const kvTokensInUse = Math.floor(r.totalKvCapacityTokens * used);
    const kvUtilization = r.totalKvCapacityTokens > 0 ? kvTokensInUse / r.totalKvCapacityTokens : 0;
    return { ...r, kvTokensInUse, kvUtilization };
  });

const contextArb: fc.Arbitrary<AutoScaleContext> = fc
  .record({
    replicas: fc.array(replicaArb, { maxLength: 8 }),
    pendingReplicas: fc.oneof(fc.constant(0), fc.nat(3)),
    pendingKvPerReplica: fc.oneof(fc.constantFrom(0, 160_000), fc.integer({ min: 1, max: 2_000_000 })),
    minSlack: fc.integer({ min: -10, max: 3 }),
    waitingRequests: countArb(500),
    nowUs: fc.nat(1_000_000_000),
  })
  .map((c) => {
    const current = c.replicas.length + c.pendingReplicas;
    return context(c.replicas, {
      nowUs: c.nowUs,
      pendingReplicas: c.pendingReplicas,
      pendingKvCapacityTokens: c.pendingReplicas * c.pendingKvPerReplica,
      // Sometimes above the current count (the cluster is still catching up to the minimum).
      minReplicas: Math.max(0, current + c.minSlack),
      waitingRequests: c.waitingRequests,
    });
  });

/** Valid params for each built-in autoscaler, 0 (= default) included where allowed. */
const paramsArb: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  'wva-saturation': fc
    .record({
      kv_cache_threshold: fc.oneof(fc.constant(0), fc.double({ min: 0.05, max: 1, noNaN: true })),
      scale_up_threshold: fc.oneof(fc.constant(0), fc.double({ min: 0.1, max: 2, noNaN: true })),
      scale_down_boundary: fc.oneof(fc.constant(0), fc.double({ min: 0.01, max: 2, noNaN: true })),
      avg_input_tokens: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 8192 })),
    })
    .filter((p) => (p.scale_down_boundary || 0.4) < (p.scale_up_threshold || 0.8)),
  threshold: fc
    .record({
      metric: fc.constantFrom('kv-utilization', 'queue-depth', 'max'),
      scale_up_threshold: fc.double({ min: 0.05, max: 3, noNaN: true }),
      down: fc.double({ min: 0, max: 0.99, noNaN: true }),
      queue_threshold: fc.double({ min: 0.5, max: 20, noNaN: true }),
      step: fc.integer({ min: 1, max: 4 }),
    })
    .map(({ down, ...p }) => ({ ...p, scale_down_threshold: p.scale_up_threshold * down })),
  'target-utilization': fc.oneof(
    fc.record({
      metric: fc.constant('kv-utilization'),
      target: fc.double({ min: 0.05, max: 1, noNaN: true }),
      tolerance: fc.double({ min: 0, max: 0.5, noNaN: true }),
    }),
    fc.record({
      metric: fc.constant('queue-depth'),
      target: fc.double({ min: 0.5, max: 20, noNaN: true }),
      tolerance: fc.double({ min: 0, max: 0.5, noNaN: true }),
    }),
  ),
  'queue-depth': fc
    .record({
      target_queue_depth: fc.double({ min: 0.5, max: 20, noNaN: true }),
      down: fc.double({ min: 0, max: 0.99, noNaN: true }),
      scale_down_kv_utilization: fraction,
    })
    .map(({ down, ...p }) => ({ ...p, scale_down_queue_depth: p.target_queue_depth * down })),
};

const NAMES = registry.names('autoscaler');
const withParams = (name: string) =>
  fc.oneof(fc.constant<Record<string, unknown>>({}), paramsArb[name]!);
const make = (name: string, params: Record<string, unknown>): AutoScalePolicy =>
  registry.createAutoscaler(name, policyContext({ params }));

describe('autoscaler properties', () => {
  it('has an arbitrary for every built-in autoscaler', () => {
    expect(Object.keys(paramsArb).sort()).toEqual(NAMES);
  });

  it.each(NAMES)(
    '%s: a finite integer delta, never below minReplicas, deterministic, inputs untouched',
    (name) => {
      fc.assert(
        fc.property(withParams(name), fc.array(contextArb, { minLength: 1, maxLength: 6 }), (params, ctxs) => {
          const policy = make(name, params);
          const twin = make(name, params);
          for (const raw of ctxs) {
            const ctx = deepFreeze(raw);
            const before = JSON.stringify(ctx);
            const d = policy.evaluate(ctx);
            expect(Number.isInteger(d.delta) && !Object.is(d.delta, -0)).toBe(true);
            expect(ctx.currentReplicas + d.delta).toBeGreaterThanOrEqual(
              Math.min(ctx.minReplicas, ctx.currentReplicas),
            );
            // Stable, readable reasons: no float noise, no NaN.
            expect(d.reason.length).toBeGreaterThan(0);
            expect(d.reason).not.toMatch(/NaN|Infinity|\.\d{4,}|e[+-]\d/);
            for (const v of Object.values(d.signals ?? {})) expect(Number.isFinite(v)).toBe(true);
            expect(twin.evaluate(ctx)).toEqual(d);
            expect(JSON.stringify(ctx)).toBe(before);
          }
        }),
        { numRuns: propertyRuns(200) },
      );
    },
  );

  it.each(NAMES)('%s: with no routable replica, +1 only to scale from zero', (name) => {
    fc.assert(
      fc.property(withParams(name), contextArb, (params, raw) => {
        const ctx = { ...raw, replicas: [] };
        const d = make(name, params).evaluate(ctx);
        const fromZero = ctx.pendingReplicas === 0 && ctx.waitingRequests > 0;
        expect(d.delta).toBe(fromZero ? 1 : 0);
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('threshold moves by at most step', () => {
    fc.assert(
      fc.property(paramsArb.threshold!, contextArb, (params, ctx) => {
        const d = make('threshold', params).evaluate(ctx);
        if (ctx.replicas.length > 0) expect(Math.abs(d.delta)).toBeLessThanOrEqual(params.step as number);
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('queue-depth scales down one at a time', () => {
    fc.assert(
      fc.property(withParams('queue-depth'), contextArb, (params, ctx) => {
        expect(make('queue-depth', params).evaluate(ctx).delta).toBeGreaterThanOrEqual(-1);
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('wva-saturation: required and spare exclude each other and give the direction', () => {
    fc.assert(
      fc.property(paramsArb['wva-saturation']!, contextArb, (params, ctx) => {
        const d = createWvaSaturationAutoscaler(params).evaluate(ctx);
        const { required = 0, spare = 0 } = d.signals ?? {};
        const sized = ctx.replicas.some((r) => r.totalKvCapacityTokens > 0);
        // Scale-up iff capacity is required (or from zero); never down when it is.
        if (required > 0) {
          expect(spare).toBe(0);
          if (sized) expect(d.delta).toBeGreaterThanOrEqual(1);
          else expect(d.delta).toBe(0);
        }
        if (d.delta > 0) expect(required > 0 || ctx.replicas.length === 0).toBe(true);
        // Scale-down only with spare capacity, and only when more than one replica is sized.
        if (spare > 0) expect(d.delta).toBeLessThanOrEqual(0);
        if (d.delta < 0) {
          expect(spare).toBeGreaterThan(0);
          expect(ctx.replicas.filter((r) => r.totalKvCapacityTokens > 0).length).toBeGreaterThan(1);
        }
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('wva-saturation: spare > 0 at minReplicas holds; above it scales down', () => {
    fc.assert(
      fc.property(contextArb, (ctx) => {
        const d = createWvaSaturationAutoscaler().evaluate(ctx);
        if ((d.signals?.spare ?? 0) > 0) {
          expect(d.delta < 0).toBe(ctx.currentReplicas > ctx.minReplicas);
        }
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
