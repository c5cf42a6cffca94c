import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, prepareSimulation, runPrepared } from '../../src/index.js';
import { ScaleLog, scripted, steadyLoad } from './helpers.js';

const S = 1_000_000;

// A fleet that can no longer serve what is left must end the run (docs/engine-semantics.md,
// autoscaling item 12). A bound of 1000 simulated seconds makes a regression fail, not hang.
const HORIZON = 1000 * S;

function run(config: SimulationConfigInput, plan: (pool: string, nowUs: number) => number) {
  const log = new ScaleLog();
  const prepared = prepareSimulation({ ...config, horizonUs: HORIZON }, { observer: log, autoscaler: (pool) => scripted((ctx) => plan(pool, ctx.nowUs)) });
  const r = runPrepared(prepared);
  prepared.cluster.checkConservation();
  return { r, log };
}

const outcomes = (r: ReturnType<typeof runPrepared>) => {
  const n: Record<string, number> = {};
  for (const u of r.unfinished_requests ?? []) n[u.outcome] = (n[u.outcome] ?? 0) + 1;
  return n;
};

describe('a fleet that cannot serve what is left ends the run', () => {
  const pd: SimulationConfigInput = {
    numInstances: 2,
    pd: { prefillInstances: 1, decodeInstances: 1, decider: 'always' },
    workload: steadyLoad(20, 2),
    autoscaling: { intervalUs: 1 * S, minReplicas: 0, scaleDownStabilizationWindowUs: 0, cooldownUs: 0 },
    lifecycle: { drainPolicy: 'immediate' },
    includeRequests: true,
  };

  it('a policy that holds once the decode pool is gone: the evaluations stop, the held requests stay unfinished', () => {
    const { r, log } = run(pd, (pool, now) => (pool === 'decode' && now === 5 * S ? -1 : 0));
    expect(log.actions.map(({ a }) => [a.pool, a.before, a.after])).toEqual([['decode', 1, 0]]);
    const last = log.evaluations.at(-1)!.now;
    expect(last).toBeLessThan(30 * S);
    expect(outcomes(r).still_queued).toBeGreaterThan(0);
  });

  it('a policy that keeps asking for a scale-down that cannot happen: the evaluations stop too (CI seed 2073485835 ran forever)', () => {
    // Nothing is disaggregated, so the prefill replica never reaches its warm-up count and stays
    // warming up, which no scale-down takes; the decode replica warms up on its first requests and
    // is drained. Both policies keep asking for less: every decision passes its gates and changes
    // nothing. Before the fix the ticks never ended.
    const config: SimulationConfigInput = {
      ...pd,
      pd: { ...pd.pd!, decider: 'never' },
      lifecycle: { drainPolicy: 'immediate', warmStartInitialInstances: false, loadingDelay: { meanUs: 0, stddevUs: 0 }, warmUpRequestCount: 3, warmUpDurationUs: 0 },
    };
    const { r, log } = run(config, (_pool, now) => (now >= 5 * S ? -1 : 0));
    const prefill = log.states.filter((s) => s.instance === 0).map((s) => s.state);
    expect(prefill.at(-1)).toBe('warming-up');
    expect(log.actions.some(({ a }) => a.pool === 'decode' && a.after === 0)).toBe(true);
    const last = log.evaluations.at(-1)!.now;
    expect(last).toBeLessThan(60 * S);
    expect(r.autoscaling!.evaluations).toBeLessThan(2 * 60);
    expect(outcomes(r).still_queued).toBeGreaterThan(0);
  });
});

describe('paused evaluations resume when a request leaves', () => {
  it('a scale-up still on its way (scrape delay 100 s) when the ticks pause serves the held requests; the ticks resume on their grid', () => {
    // 1 replica, drained by the decision of t = 0 (carried out at 100 s); arrivals end at 150 s and
    // wait at the router. The scale-up decided at 101 s is carried out at 201 s: by then no request
    // had done anything for more than 17 evaluations, so the ticks had paused.
    const config: SimulationConfigInput = {
      numInstances: 1,
      workload: steadyLoad(150),
      autoscaling: { intervalUs: 1 * S, minReplicas: 0, scaleUpStabilizationWindowUs: 0, scaleDownStabilizationWindowUs: 0, cooldownUs: 0, scrapeDelay: { meanUs: 100 * S, stddevUs: 0 } },
      lifecycle: { drainPolicy: 'immediate', loadingDelay: { meanUs: 0, stddevUs: 0 } },
    };
    const { r, log } = run(config, (_pool, now) => (now === 0 ? -1 : now === 101 * S ? 1 : 0));
    expect(log.actions.map(({ now, a }) => [now / S, a.before, a.after])).toEqual([
      [100, 1, 0],
      [201, 0, 1],
    ]);
    const times = log.evaluations.map((e) => e.now / S);
    // Paused: no evaluation between the 17 idle ones after the last arrival and the scale-up.
    expect(times.filter((t) => t > 170 && t < 201)).toEqual([]);
    // Resumed on the 1 s grid while the held requests are served (within a second).
    expect(times.find((t) => t > 201)).toBe(202);
    expect(r.completed_requests + r.autoscaling!.drained_dropped).toBe(150);
    expect(r.completed_requests).toBeGreaterThan(0);
  });

  it('a policy that cancels its own scale-ups before they load (CI seed 279421483 ran forever): paused, the replica on its way serves', () => {
    // The only replica is drained at t = 0; then the policy asks for one replica and cancels it
    // a second later, for ever, and loading takes 5 s: no replica ever became routable.
    const config: SimulationConfigInput = {
      numInstances: 1,
      workload: steadyLoad(10),
      autoscaling: { intervalUs: 1 * S, minReplicas: 0, scaleUpStabilizationWindowUs: 0, scaleDownStabilizationWindowUs: 0, cooldownUs: 0 },
      lifecycle: { drainPolicy: 'immediate', loadingDelay: { meanUs: 5 * S, stddevUs: 0 } },
    };
    const { r, log } = run(config, (_pool, now) => (now === 0 ? -1 : (now / S) % 2 === 1 ? 1 : -1));
    const last = log.evaluations.at(-1)!.now;
    expect(last).toBeLessThan(200 * S);
    // Every request left: completed on a replica that loaded while the evaluations were paused.
    expect(r.completed_requests).toBeGreaterThan(0);
    expect(r.completed_requests + r.autoscaling!.drained_dropped).toBe(10);
    expect(r.unfinished_requests ?? []).toEqual([]);
  });
});
