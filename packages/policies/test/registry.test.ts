import { describe, expect, it } from 'vitest';
import {
  createAdmissionPolicy,
  createPolicyRegistry,
  createRoutingPolicy,
  createScheduler,
  DuplicatePolicyError,
  listPolicies,
  PolicyParamsError,
  parseScorerSpec,
  policyContext,
  type RoutingPolicy,
  ScorerSpecError,
  UnknownPolicyError,
} from '../src/index.js';
import { request, routerState, snapshots } from '../src/testing/index.js';

describe('the built-in catalogue', () => {
  it('lists every policy by kind, sorted', () => {
    expect(listPolicies()).toEqual({
      admission: [
        'always-admit',
        'gaie-legacy',
        'reject-all',
        'slo-shed',
        'tenant-quota',
        'tier-shed',
        'token-bucket',
      ],
      priority: ['constant', 'inverted-slo', 'slo-based', 'slo-class'],
      routing: [
        'always-busiest',
        'cost-escalation',
        'least-kv',
        'least-loaded',
        'prefix-aware',
        'prefix-overlap',
        'round-robin',
        'session-affinity',
        'weighted',
      ],
      scheduler: ['fcfs', 'priority-fcfs', 'reverse-priority', 'sjf'],
      scorer: [
        'active-requests',
        'kv-utilization',
        'load-aware',
        'load-balance',
        'lora-affinity',
        'no-hit-lru',
        'precise-prefix-cache',
        'prefix-affinity',
        'queue-depth',
        'running-requests',
        'vllm-dp',
      ],
      decider: ['always', 'never', 'prefix-threshold'],
      autoscaler: ['queue-depth', 'target-utilization', 'threshold', 'wva-saturation'],
    });
  });

  it('builds every listed policy with default params', () => {
    const registry = createPolicyRegistry();
    const ctx = policyContext({ numInstances: 2 });
    const listing = registry.listPolicies();
    for (const name of listing.admission) {
      if (name === 'tenant-quota') continue; // maxInFlight is required
      expect(registry.createAdmissionPolicy(name, ctx).name).toBe(name);
    }
    for (const name of listing.priority)
      expect(registry.createPriorityPolicy(name, ctx).name).toBe(name);
    for (const name of listing.routing)
      expect(registry.createRoutingPolicy(name, ctx).name).toBe(name);
    for (const name of listing.scheduler)
      expect(registry.createScheduler(name, ctx).name).toBe(name);
    for (const name of listing.scorer) expect(registry.createScorer(name, ctx).name).toBe(name);
    for (const name of listing.decider) expect(registry.createDecider(name, ctx).name).toBe(name);
    for (const name of listing.autoscaler)
      expect(registry.createAutoscaler(name, ctx).name).toBe(name);
  });

  it('treats an empty name as the default of its kind', () => {
    const ctx = policyContext();
    expect(createAdmissionPolicy('', ctx).name).toBe('always-admit');
    expect(createRoutingPolicy('', ctx).name).toBe('round-robin');
    expect(createScheduler('', ctx).name).toBe('fcfs');
  });
});

describe('unknown names', () => {
  it('throw UnknownPolicyError listing the valid names', () => {
    let caught: unknown;
    try {
      createRoutingPolicy('fastest', policyContext());
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UnknownPolicyError);
    const err = caught as UnknownPolicyError;
    expect(err.kind).toBe('routing');
    expect(err.policyName).toBe('fastest');
    expect(err.validNames).toContain('weighted');
    expect(err.message).toMatch(
      /^unknown routing policy "fastest"; valid: always-busiest, cost-escalation, /,
    );
  });
});

describe('parameter validation', () => {
  it('names the field, what was expected and what was found', () => {
    expect(() =>
      createAdmissionPolicy('token-bucket', policyContext({ params: { capacity: -5 } })),
    ).toThrow(/token-bucket.*params\.capacity: expected a finite number > 0; found -5/);
    expect(() =>
      createAdmissionPolicy('token-bucket', policyContext({ params: { capacty: 5 } })),
    ).toThrow(/params\.capacty: unknown field/);
    expect(() => createAdmissionPolicy('tenant-quota', policyContext())).toThrow(
      /params\.maxInFlight: expected an integer > 0 \(cluster in-flight capacity\); found nothing/,
    );
    expect(() => createScheduler('sjf', policyContext({ params: { reverse: true } }))).toThrow(
      PolicyParamsError,
    );
  });

  it('reports weighted scorer problems under params.scorers', () => {
    const make = (scorers: unknown) => () =>
      createRoutingPolicy('weighted', policyContext({ params: { scorers } }));
    expect(make('queue-depth:2,warp:1')).toThrow(
      /params\.scorers: unknown scorer "warp"; valid: active-requests, /,
    );
    expect(make([{ name: 'queue-depth', weight: 0 }])).toThrow(
      /params\.scorers\[0\]\.weight: expected a finite number > 0; found 0/,
    );
    expect(
      make([
        { name: 'queue-depth', weight: 1 },
        { name: 'queue-depth', weight: 2 },
      ]),
    ).toThrow(/params\.scorers\[1\]\.name: duplicate scorer "queue-depth"/);
    expect(make([{ name: 'prefix-affinity', weight: 1, params: { lruCapacity: 0 } }])).toThrow(
      /params\.scorers\[0\]\.params\.lruCapacity: expected an integer > 0; found 0/,
    );
    expect(make([{ name: 'nope', weight: 1 }])).toThrow(
      /params\.scorers\[0\]\.name: unknown scorer "nope"/,
    );
  });

  it('accepts weighted scorers as "name:weight" text', () => {
    const policy = createRoutingPolicy(
      'weighted',
      policyContext({ params: { scorers: 'load-balance:1' } }),
    );
    const d = policy.route(request(), routerState(snapshots({ queueDepth: 1 }, {})));
    expect(d.instance).toBe(1);
    expect(Object.keys(d.breakdown ?? {})).toEqual(['load-balance']);
  });
});

describe('custom registrations', () => {
  const pickLast = (): RoutingPolicy => ({
    name: 'pick-last',
    route: (_r, s) => ({ instance: s.instances.length - 1, reason: 'last' }),
  });

  it('are created by name and stay inside their registry', () => {
    const mine = createPolicyRegistry();
    mine.registerRoutingPolicy('pick-last', pickLast);
    expect(
      mine
        .createRoutingPolicy('pick-last', policyContext())
        .route(request(), routerState(snapshots({}, {}))).instance,
    ).toBe(1);
    expect(createPolicyRegistry().has('routing', 'pick-last')).toBe(false);
    expect(() => mine.registerRoutingPolicy('pick-last', pickLast)).toThrow(DuplicatePolicyError);
    mine.registerRoutingPolicy('pick-last', pickLast, { replace: true });
    expect(() => mine.registerRoutingPolicy('bad name!', pickLast)).toThrow(/invalid/);
  });

  it('custom scorers can be weighted with the built-ins', () => {
    const mine = createPolicyRegistry();
    mine.registerScorer('prefer-odd', () => ({
      name: 'prefer-odd',
      score: (_r, s, out) => {
        for (let i = 0; i < s.instances.length; i++) out[i] = s.instances[i].index % 2;
      },
    }));
    const policy = mine.createRoutingPolicy(
      'weighted',
      policyContext({ params: { scorers: 'prefer-odd:5,queue-depth:1' } }),
    );
    expect(policy.route(request(), routerState(snapshots({}, { queueDepth: 3 }))).instance).toBe(1);
  });

  it('an empty registry knows nothing', () => {
    const empty = createPolicyRegistry({ builtins: false });
    expect(empty.listPolicies().routing).toEqual([]);
    expect(() => empty.createRoutingPolicy('round-robin', policyContext())).toThrow(/valid: $/);
  });
});

describe('parseScorerSpec', () => {
  it('parses name:weight pairs, tolerating spaces', () => {
    expect(parseScorerSpec(' prefix-affinity:3 , queue-depth:2,kv-utilization:0.5')).toEqual([
      { name: 'prefix-affinity', weight: 3 },
      { name: 'queue-depth', weight: 2 },
      { name: 'kv-utilization', weight: 0.5 },
    ]);
    expect(parseScorerSpec('')).toEqual([]);
  });
  it('rejects bad entries with a message that says why', () => {
    expect(() => parseScorerSpec('warp:1')).toThrow(ScorerSpecError);
    expect(() => parseScorerSpec('warp:1')).toThrow(
      'unknown scorer "warp"; valid: active-requests, kv-utilization, load-aware, load-balance, lora-affinity, no-hit-lru, precise-prefix-cache, prefix-affinity, queue-depth, running-requests, vllm-dp',
    );
    expect(() => parseScorerSpec('queue-depth')).toThrow(
      'invalid scorer entry "queue-depth": expected name:weight',
    );
    expect(() => parseScorerSpec('queue-depth:1,queue-depth:2')).toThrow(
      /duplicate scorer "queue-depth"/,
    );
    for (const w of ['0', '-1', 'abc', 'NaN', 'Infinity', '']) {
      expect(() => parseScorerSpec(`queue-depth:${w}`)).toThrow(
        /weight must be a finite number > 0/,
      );
    }
  });
});
