import { PolicyError, type RoutingPolicy } from '@blis/policies';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, type SimulationRuntime, simulate } from '../src/index.js';
import { scripted, steadyLoad } from './autoscale/helpers.js';

const S = 1_000_000;

const base: SimulationConfigInput = {
  seed: 7,
  model: 'meta-llama/llama-3.1-8b-instruct',
  hardware: 'H100',
  latencyModel: 'blackbox',
  numInstances: 3,
  // Constant arrivals, as BLIS's: the first at int64(1 / (20 / 1e6)) = 49,999 µs (the quotient is
  // 49999.99999999999 in float64).
  workload: { kind: 'synthetic', rate: 20, numRequests: 60, promptTokens: 256, outputTokens: 32, prefixTokens: 64 },
};

/** The PolicyError simulate() throws (fails when it throws something else or nothing). */
function policyError(config: SimulationConfigInput, runtime: SimulationRuntime): PolicyError {
  try {
    simulate(config, runtime);
  } catch (e) {
    if (e instanceof PolicyError) return e;
    throw e;
  }
  throw new Error('expected a PolicyError, the run finished');
}

const roundRobin = (): RoutingPolicy => {
  let n = 0;
  return { name: 'rr', route: (_r, s) => ({ instance: n++ % s.instances.length, reason: '' }) };
};

describe('SimulationRuntime policy checks', () => {
  it('a custom policy is always checked: an index out of range stops the run with its source and decision', () => {
    const e = policyError(base, { routing: { name: 'off-by-one', route: (_r, s) => ({ instance: s.instances.length, reason: '' }) }, policySources: { routing: './off.mjs' } });
    expect(e.message).toBe('routing policy "off-by-one" (./off.mjs): route() for request 0 ("0") at 49999 µs: returned instance 3; expected 0..2');
  });

  it('a custom scheduler that throws inside the engine, and an autoscaler with a NaN delta, surface as PolicyErrors', () => {
    const sched = policyError({ ...base, numInstances: 1, workload: { kind: 'synthetic', rate: 500, numRequests: 60 } }, {
      scheduler: () => ({
        name: 'grumpy',
        compare: () => {
          throw new TypeError('cannot compare');
        },
      }),
    });
    expect(sched).toMatchObject({ kind: 'scheduler', method: 'compare', problem: 'threw: cannot compare' });
    expect(sched.context).toMatch(/^request \d+ \("\d+"\) and request \d+ \("\d+"\) on instance 0 at \d+ µs$/);
    const scaler = policyError(
      { ...base, numInstances: 2, workload: steadyLoad(40), autoscaling: { intervalUs: 10 * S, policy: 'queue-depth', minReplicas: 1, maxReplicas: 4 } },
      { autoscaler: () => scripted(() => Number.NaN), policySources: { autoscaler: 'nan.mjs' } },
    );
    expect(scaler.message).toBe('autoscaler "scripted" (nan.mjs): evaluate() for scaling group monolithic at 0 µs: returned delta NaN; expected a whole number of replicas');
  });

  it('policyBudgetMs bounds each call of a custom policy', () => {
    const slow: RoutingPolicy = {
      name: 'slow',
      route: () => {
        const until = performance.now() + 20;
        while (performance.now() < until);
        return { instance: 0, reason: '' };
      },
    };
    const e = policyError(base, { routing: slow, policyBudgetMs: 1 });
    expect(e.problem).toMatch(/^took [\d.]+ ms; the budget per decision is 1 ms$/);
  });

  it('checkPolicies: a write to the router state is reported; without it the same policy runs', () => {
    const writer = (): RoutingPolicy => {
      const rr = roundRobin();
      return {
        name: 'writer',
        route(r, s) {
          (s.instances[0] as { queueDepth: number }).queueDepth = 0;
          return rr.route(r, s);
        },
      };
    };
    const e = policyError(base, { routing: writer(), checkPolicies: true, policySources: { routing: './w.mjs' } });
    expect(e.message).toBe('routing policy "writer" (./w.mjs): route() for request 0 ("0") at 49999 µs: wrote state.instances[0].queueDepth; the views a policy receives are read-only');
    expect(simulate(base, { routing: writer() }).completed_requests).toBe(60);
  });

  // Check mode wraps every built-in policy (pool routers, schedulers, autoscalers included) in
  // read-only views: the run is the same, field for field, and nothing the simulator hands a
  // policy is written to.
  it.each<[string, SimulationConfigInput]>([
    ['weighted routing, priority scheduling, admission', {
      ...base,
      routing: { policy: 'weighted', scorers: [{ name: 'precise-prefix-cache', weight: 2 }, { name: 'queue-depth', weight: 1 }, { name: 'kv-utilization', weight: 1 }] },
      scheduler: { policy: 'priority-fcfs' },
      priority: { policy: 'slo-based' },
      admission: { policy: 'token-bucket', params: { capacity: 100_000, refillRate: 50_000 } },
    }],
    ['P/D with a prefix-threshold decider', { ...base, numInstances: 4, pd: { prefillInstances: 2, decodeInstances: 2, decider: 'prefix-threshold' } }],
    ['an autoscaler and flow control', {
      ...base,
      numInstances: 2,
      workload: steadyLoad(60, 4),
      routing: { policy: 'least-loaded' },
      flowControl: { enabled: true },
      autoscaling: { intervalUs: 10 * S, policy: 'queue-depth', minReplicas: 1, maxReplicas: 4 },
    }],
  ])('checkPolicies changes nothing for %s', (_what, config) => {
    expect(JSON.stringify(simulate(config, { checkPolicies: true }))).toBe(JSON.stringify(simulate(config)));
  });
});
