import { describe, expect, it } from 'vitest';
import {
  createAlwaysAdmit,
  createGaieLegacy,
  createRejectAll,
  createSloShed,
  createTenantQuota,
  createTierShed,
  createTokenBucket,
} from '../src/internal.js';
import { request, routerState, snapshots } from '../src/testing/index.js';

describe('always-admit and reject-all', () => {
  it('do what they say', () => {
    const state = routerState(snapshots({}));
    expect(createAlwaysAdmit().admit(request(), state).admit).toBe(true);
    expect(createRejectAll().admit(request(), state)).toEqual({
      admit: false,
      reason: 'reject-all',
    });
  });
});

describe('token-bucket', () => {
  it('starts full, charges input tokens and refills lazily at refillRate per second', () => {
    const tb = createTokenBucket({ capacity: 100, refillRate: 10 });
    const at = (nowUs: number) => routerState(snapshots({}), { nowUs });
    const admit = (tokens: number, nowUs: number) =>
      tb.admit(request({ inputTokens: tokens }), at(nowUs)).admit;

    expect(admit(60, 0)).toBe(true); // 100 -> 40
    expect(admit(50, 0)).toBe(false); // 40 < 50, nothing charged
    expect(admit(40, 0)).toBe(true); // 40 -> 0
    expect(admit(5, 499_999)).toBe(false); // +4.99999 tokens
    expect(admit(5, 500_000)).toBe(true); // +0.00001 more: exactly 5 -> 0
    expect(admit(6, 1_000_000)).toBe(false); // +5 -> 5
    expect(admit(20, 2_500_000)).toBe(true); // +15 -> 20 -> 0
    expect(admit(100, 100_000_000)).toBe(true); // refill capped at capacity 100
    expect(admit(1, 100_000_000)).toBe(false);
  });
  it('uses BLIS defaults capacity 10000 and 1000 tokens/s', () => {
    const tb = createTokenBucket();
    const state = routerState(snapshots({}));
    expect(tb.admit(request({ inputTokens: 10_000 }), state).admit).toBe(true);
    expect(tb.admit(request({ inputTokens: 1 }), state)).toEqual({
      admit: false,
      reason: 'insufficient tokens',
    });
    const later = routerState(snapshots({}), { nowUs: 1_000_000 });
    expect(tb.admit(request({ inputTokens: 1000 }), later).admit).toBe(true);
  });
});

describe('tenant-quota', () => {
  it('limits each tenant to floor(share * maxInFlight) in-flight requests', () => {
    const policy = createTenantQuota({ maxInFlight: 10, quotas: { a: 0.35 }, defaultShare: 0.2 });
    const state = routerState(snapshots({}), {
      tenants: { a: { inFlight: 2 }, b: { inFlight: 2 } },
    });
    expect(policy.admit(request({ tenantId: 'a' }), state).admit).toBe(true); // 2 < 3
    expect(policy.admit(request({ tenantId: 'b' }), state).admit).toBe(false); // 2 >= 2
    const full = routerState(snapshots({}), { tenants: { a: { inFlight: 3 } } });
    const d = policy.admit(request({ tenantId: 'a' }), full);
    expect(d.admit).toBe(false);
    expect(d.reason).toBe('tenant-quota: tenant=a in_flight=3 limit=3');
  });
  it('splits capacity equally among the tenants seen so far by default', () => {
    const policy = createTenantQuota({ maxInFlight: 8 });
    const state = routerState(snapshots({}), {
      tenants: { a: { inFlight: 5 }, b: { inFlight: 3 } },
    });
    expect(policy.admit(request({ tenantId: 'a' }), state).admit).toBe(true); // alone: limit 8
    expect(policy.admit(request({ tenantId: 'b' }), state).admit).toBe(true); // 3 < 4
    expect(policy.admit(request({ tenantId: 'a' }), state).admit).toBe(false); // 5 >= 4
  });
  it('divides by tenantCount when given, and never goes below one request', () => {
    const policy = createTenantQuota({ maxInFlight: 3, tenantCount: 4 });
    const idle = routerState(snapshots({}));
    expect(policy.admit(request({ tenantId: 'x' }), idle).admit).toBe(true); // limit max(1, 0)
    const one = routerState(snapshots({}), { tenants: { x: { inFlight: 1 } } });
    expect(policy.admit(request({ tenantId: 'x' }), one).admit).toBe(false);
  });
  it('lets an over-quota tenant borrow idle capacity when allowed', () => {
    const policy = createTenantQuota({ maxInFlight: 10, quotas: { a: 0.2 }, allowBorrowing: true });
    const quiet = routerState(snapshots({}), {
      globalInFlight: 6,
      tenants: { a: { inFlight: 4 } },
    });
    expect(policy.admit(request({ tenantId: 'a' }), quiet)).toEqual({
      admit: true,
      reason: 'tenant-quota: borrowed idle capacity',
    });
    const busy = routerState(snapshots({}), {
      globalInFlight: 10,
      tenants: { a: { inFlight: 4 } },
    });
    expect(policy.admit(request({ tenantId: 'a' }), busy).admit).toBe(false);
  });
});

describe('slo-shed', () => {
  const classes = ['critical', 'standard', '', 'mystery', 'batch', 'sheddable', 'background'];
  const admitted = (saturation: number) => {
    const policy = createSloShed();
    const state = routerState(snapshots({}), { saturation });
    return classes.filter((c) => policy.admit(request({ sloClass: c }), state).admit);
  };
  it('admits everything below the threshold', () => {
    expect(admitted(0.99)).toEqual(classes);
  });
  it('sheds the sheddable classes at saturation >= 1', () => {
    expect(admitted(1)).toEqual(['critical', 'standard', '', 'mystery']);
  });
  it('sheds every class at the protected threshold (2)', () => {
    expect(admitted(2)).toEqual([]);
  });
  it('honours priority overrides', () => {
    const policy = createSloShed({
      priorities: { batch: 1 },
      threshold: 0.5,
      protectedThreshold: 3,
    });
    const state = routerState(snapshots({}), { saturation: 0.6 });
    expect(policy.admit(request({ sloClass: 'batch' }), state).admit).toBe(true);
    expect(policy.admit(request({ sloClass: 'sheddable' }), state).admit).toBe(false);
  });
});

describe('tier-shed', () => {
  it('rejects classes below minAdmitPriority once the busiest instance exceeds the threshold', () => {
    const policy = createTierShed({ overloadThreshold: 4 });
    const calm = routerState(snapshots({ queueDepth: 4 }, {}));
    expect(policy.admit(request({ sloClass: 'background' }), calm).admit).toBe(true);
    const hot = routerState(snapshots({ queueDepth: 4, batchSize: 1 }, {}));
    expect(policy.admit(request({ sloClass: 'batch' }), hot).admit).toBe(false);
    expect(policy.admit(request({ sloClass: 'standard' }), hot).admit).toBe(true);
    expect(policy.admit(request({ sloClass: '' }), hot).admit).toBe(true);
    expect(policy.admit(request({ sloClass: 'critical' }), hot).admit).toBe(true);
  });
});

describe('gaie-legacy', () => {
  it('rejects sheddable classes when mean max(q/5, kv/0.8) >= 1', () => {
    const policy = createGaieLegacy();
    const saturated = routerState(snapshots({ queueDepth: 5 }, { kvUtilization: 0.8 }));
    expect(policy.admit(request({ sloClass: 'batch' }), saturated).admit).toBe(false);
    expect(policy.admit(request({ sloClass: 'critical' }), saturated).admit).toBe(true);
    // max(2/5, 0.4/0.8) = 0.5 and max(0, 0) = 0 -> mean 0.25
    const fine = routerState(snapshots({ queueDepth: 2, kvUtilization: 0.4 }, {}));
    expect(policy.admit(request({ sloClass: 'batch' }), fine).admit).toBe(true);
  });
});
