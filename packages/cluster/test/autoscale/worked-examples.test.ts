import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/index.js';
import { ScaleLog, scripted, steadyLoad } from './helpers.js';

const S = 1_000_000;

describe('AS-3: the timeline of a scale-up (interval 30 s, up window 60 s, scrape 15 s, loading 240 s)', () => {
  /** Asks for one more replica while `signal(t)` holds, until a scale-up has been scheduled. */
  const run = (signal: (t: number) => boolean) => {
    const log = new ScaleLog();
    const scheduled = () => log.evaluations.some(({ e }) => e.outcome === 'scheduled');
    simulate(
      {
        numInstances: 1,
        horizonUs: 400 * S,
        workload: steadyLoad(1000),
        autoscaling: { intervalUs: 30 * S, scaleUpStabilizationWindowUs: 60 * S, scrapeDelay: { meanUs: 15 * S } },
        lifecycle: { loadingDelay: { meanUs: 240 * S } },
      },
      { observer: log, autoscaler: () => scripted((ctx) => (!scheduled() && signal(ctx.nowUs / S) ? 1 : 0)) },
    );
    return log;
  };

  it('a signal at 0, 30 and 60 s is suppressed twice and passes at 60 s; the replica loads from 75 s and serves from 315 s', () => {
    const log = run(() => true);
    expect(log.evaluations.slice(0, 3).map(({ now, e }) => [now / S, e.outcome])).toEqual([
      [0, 'stabilizing'],
      [30, 'stabilizing'],
      [60, 'scheduled'],
    ]);
    expect(log.actions.map(({ now, a }) => [now / S, a.before, a.after])).toEqual([[75, 1, 2]]);
    expect(log.timeline(1)).toEqual([
      [75, 'loading'],
      [315, 'active'],
    ]);
  });

  it('a signal that lapses at 30 s resets the window: it restarts at 60 s and passes at 120 s', () => {
    const log = run((t) => t !== 30);
    expect(log.evaluations.slice(0, 5).map(({ now, e }) => [now / S, e.outcome])).toEqual([
      [0, 'stabilizing'],
      [30, 'hold'],
      [60, 'stabilizing'],
      [90, 'stabilizing'],
      [120, 'scheduled'],
    ]);
    expect(log.actions.map(({ now }) => now / S)).toEqual([135]);
  });
});

describe('AS-4: cost', () => {
  it('A ($2/h) lives 0-600 s, B ($2/h) 75-900 s: 1425 replica-seconds, $0.79167', () => {
    const log = new ScaleLog();
    const r = simulate(
      {
        numInstances: 1,
        horizonUs: 900 * S,
        // Constant arrivals every second, the last before the horizon at 899 s (as in BLIS, none
        // arrives at it); 200-token answers keep a request in flight at every instant, so the run
        // lasts to the horizon rather than ending with the last answer.
        workload: steadyLoad(1200, 1, 200),
        // Ticks at 0, 75, ..., 525 s; each decision acts 75 s later.
        autoscaling: { intervalUs: 75 * S, scrapeDelay: { meanUs: 75 * S } },
        nodePools: [{ name: 'gpu', gpuType: 'H100', gpusPerNode: 1, gpuMemoryGib: 80, initialNodes: 2, maxNodes: 2, costPerHour: 2 }],
        lifecycle: { warmStartInitialInstances: true, drainPolicy: 'immediate' },
      },
      { observer: log, autoscaler: () => scripted((ctx) => (ctx.nowUs === 0 ? 1 : ctx.nowUs === 525 * S ? -1 : 0)) },
    );
    // The scale-down drains the oldest replica, A, which terminates at once (immediate).
    // A startup replica passes through loading at t = 0 (warm start: no delay).
    expect(log.timeline(0)).toEqual([
      [0, 'loading'],
      [0, 'active'],
      [600, 'draining'],
      [600, 'terminated'],
    ]);
    expect(log.timeline(1)).toEqual([
      [75, 'loading'],
      [75, 'active'],
    ]);
    const a = r.autoscaling!;
    // 600 + (900 - 75) = 1425 s; 1425 / 3600 x $2 = $0.791666...
    expect(a.replica_seconds).toBeCloseTo(1425, 9);
    expect(a.cost_usd).toBeCloseTo(0.7916667, 6);
    expect(a.gpu_seconds).toBeCloseTo(1425, 9);
    expect(a.replica_seconds_by_state.active_s).toBeCloseTo(1425, 9);
    expect(a.peak_replicas).toBe(2);
    expect(a.mean_replicas).toBeCloseTo(1425 / 900, 9);
    expect([a.scale_up_events, a.scale_down_events, a.replicas_added, a.replicas_drained]).toEqual([1, 1, 1, 1]);
  });
});

describe('AS-5: warm-up (N = 3, factor 2)', () => {
  it('the first 3 requests routed to a warming replica report twice their TTFT, and E2E grows by as much', () => {
    const base = { numInstances: 1, workload: steadyLoad(10), includeRequests: true } as const;
    const plain = simulate({ ...base, lifecycle: {} }).requests!;
    const warm = simulate({ ...base, lifecycle: { warmUpRequestCount: 3, warmUpTtftFactor: 2 } }).requests!;
    for (let i = 0; i < plain.length; i++) {
      const f = i < 3 ? 2 : 1;
      expect(warm[i].ttft_ms).toBeCloseTo(plain[i].ttft_ms * f, 9);
      expect(warm[i].e2e_ms).toBeCloseTo(plain[i].e2e_ms + (f - 1) * plain[i].ttft_ms, 9);
      expect(warm[i].ttft_ms).toBeLessThanOrEqual(warm[i].e2e_ms);
    }
  });

  it('the replica is active after its third completion', () => {
    const log = new ScaleLog();
    simulate({ numInstances: 1, workload: steadyLoad(10), lifecycle: { warmUpRequestCount: 3, warmUpTtftFactor: 2 } }, { observer: log });
    const tl = log.timeline(0);
    expect(tl.map(([, s]) => s)).toEqual(['loading', 'warming-up', 'active']);
    // Constant arrivals at 1, 2, 3 s, each served well within its second: the third completes
    // between 3 and 4 s, and then the replica is active.
    expect(tl[2][0]).toBeGreaterThan(3);
    expect(tl[2][0]).toBeLessThan(4);
  });
});
