import { ArrayRequestSource, makeRequestSpec } from '@blis/engine';
import type { LatencyModel } from '@blis/latency';
import { type InstanceScheduler, PolicyError, type PriorityPolicy, type RoutingPolicy } from '@blis/policies';
import { createRoundRobin, createWeightedRouting } from '@blis/policies/internal';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, type SimulationRuntime, simulate } from '../src/index.js';

// `metrics()` of policy objects, collected into the result's `custom_metrics` at the end of the
// run: keys (one-of-a-kind objects by name, per-instance schedulers by instance, collisions by
// kind), scorer metrics through the weighted router, absence when nobody reports, and errors.

const FLAT: LatencyModel = { kind: 'flat', stepTime: () => 1000, queueingTime: () => 0, outputTokenTime: () => 0, postDecodeFixedOverhead: () => 0 };

function run(runtime: SimulationRuntime, extra: Partial<SimulationConfigInput> = {}) {
  const specs = [0, 100, 200].map((arrivalUs, index) => makeRequestSpec({ index, arrivalUs, inputTokens: 16, outputTokens: 2 }));
  return simulate({ numInstances: 2, totalKVBlocks: 1000, checkInvariants: true, ...extra }, { latency: FLAT, source: new ArrayRequestSource(specs), ...runtime });
}

/** Round robin that counts its decisions and completions. */
function countingRouter(name = 'counting'): RoutingPolicy {
  const rr = createRoundRobin();
  let routed = 0;
  let completed = 0;
  return {
    name,
    route(req, state) {
      routed++;
      return rr.route(req, state);
    },
    onComplete: () => void completed++,
    metrics: () => ({ routed, completed }),
  };
}

describe('custom_metrics', () => {
  it('a router reporting its counts: under its name', () => {
    const r = run({ routing: countingRouter() });
    expect(r.custom_metrics).toEqual({ counting: { routed: 3, completed: 3 } });
  });

  it('is absent when no policy reports metrics, so existing outputs are unchanged', () => {
    const r = run({});
    expect('custom_metrics' in r).toBe(false);
    expect(JSON.stringify(r)).not.toContain('custom_metrics');
  });

  it('per-instance schedulers are keyed name/instance id; a policy reporting {} is left out', () => {
    const scheduler = (i: number): InstanceScheduler => ({ name: 'sched', metrics: (): Record<string, number> => (i === 0 ? { index: i } : {}) });
    const r = run({ scheduler, routing: countingRouter() });
    expect(r.custom_metrics).toEqual({ counting: { routed: 3, completed: 3 }, 'sched/instance_0': { index: 0 } });
    const all = run({ scheduler: (i) => ({ name: 'sched', metrics: () => ({ index: i }) }) });
    expect(Object.keys(all.custom_metrics!)).toEqual(['sched/instance_0', 'sched/instance_1']);
  });

  it('two objects with one name: the later one gets its kind appended; one object in two roles reports once', () => {
    const priority: PriorityPolicy = { name: 'counting', priority: () => 0, metrics: () => ({ scored: 1 }) };
    const r = run({ priority, routing: countingRouter() });
    expect(r.custom_metrics).toEqual({ counting: { scored: 1 }, 'counting/routing': { routed: 3, completed: 3 } });
    const shared = (): InstanceScheduler => sched;
    const sched: InstanceScheduler = { name: 'one', metrics: () => ({ n: 1 }) };
    expect(run({ scheduler: shared }).custom_metrics).toEqual({ 'one/instance_0': { n: 1 } });
  });

  it('scorers report through the weighted router as scorer.metric', () => {
    let calls = 0;
    const routing = createWeightedRouting([
      { scorer: { name: 'zero', score: (_q, _s, out) => void out.fill(0), metrics: () => ({ calls: ++calls }) }, weight: 1 },
      { scorer: { name: 'quiet', score: (_q, _s, out) => void out.fill(1) }, weight: 1 },
    ]);
    expect(run({ routing }).custom_metrics).toEqual({ weighted: { 'zero.calls': 1 } });
    expect(createWeightedRouting([{ scorer: { name: 'quiet', score: () => undefined }, weight: 1 }]).metrics).toBeUndefined();
  });

  it('a value that is not a finite number is a PolicyError naming the policy and the metric', () => {
    const routing: RoutingPolicy = { ...countingRouter('bad'), metrics: () => ({ ok: 1, ratio: Number.NaN }) };
    expect(() => run({ routing })).toThrow(PolicyError);
    expect(() => run({ routing })).toThrow('routing policy "bad": metrics() for the end of the run: returned ratio = NaN; expected finite numbers');
  });
});
