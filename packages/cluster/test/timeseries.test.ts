import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SimulationResult, simulate } from '../src/index.js';
import { simulationConfigArb } from '../src/testing/index.js';
import { type TimeSeriesHost, TimeSeriesRecorder } from '../src/timeseries/timeseries-recorder.js';
import { timeseriesResult } from '../src/timeseries/timeseries-result.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

/** A host whose one instance's signals the test sets by hand between samples. */
function fakeHost() {
  const state = { queue: 0, running: 0, used: 0, hits: 0, misses: 0, completed: 0 };
  const inst = {
    get queueDepth() {
      return state.queue;
    },
    get batchSize() {
      return state.running;
    },
    kv: {
      get utilization() {
        return state.used / 10;
      },
      stats: () => ({ cacheHits: state.hits, cacheMisses: state.misses, allocationFailures: 0 }),
    },
    metrics: {
      get completed() {
        return state.completed;
      },
    },
  };
  const host = { instances: [inst], hasGateway: false, gatewayLength: 0, fleet: undefined, pd: undefined } as unknown as TimeSeriesHost;
  return { state, host, inst };
}

describe('time series recorder (hand-computed)', () => {
  it('samples the grid before each event, and per-interval rates come from cumulative counters', () => {
    const { state, host } = fakeHost();
    const rec = new TimeSeriesRecorder(1000, 100, host);
    // Events at 0 and 1500: the sample at 0 sees the state after the event at 0; at 1000, after 1500's predecessor.
    state.queue = 2;
    state.hits = 3;
    state.misses = 1;
    rec.sampleBefore(1500, host); // grid 0 and 1000 (both < 1500)
    state.queue = 5;
    state.hits = 4;
    state.misses = 4;
    state.completed = 2;
    rec.sampleThrough(2000, host); // grid 2000
    rec.endAt(2000);
    rec.sampleEnd(2000, host); // 2000 is a grid point: no extra sample
    const r = timeseriesResult(rec, ['i0']);
    expect(r.t_ms).toEqual([0, 1, 2]);
    expect(r.instances[0].queue_depth).toEqual([2, 2, 5]);
    // Interval ending at 0: 3 hits of 4 lookups; at 1: no lookups; at 2: 1 hit of 4 lookups.
    expect(r.instances[0].cache_hit_rate).toEqual([0.75, null, 0.25]);
    expect(r.instances[0].completed).toEqual([0, 0, 2]);
    expect(r.cluster.queue_depth).toEqual([2, 2, 5]);
  });

  it('halves at the cap: the interval doubles and the even grid points stay', () => {
    const { state, host } = fakeHost();
    const rec = new TimeSeriesRecorder(10, 4, host);
    for (let t = 0; t <= 30; t += 10) {
      state.queue = t;
      rec.sampleThrough(t, host);
    }
    // Samples at 0, 10, 20, 30 hit the cap of 4: keep 0 and 20, interval 20, next grid point 40.
    expect(rec.intervalUs).toBe(20);
    expect(rec.count).toBe(2);
    expect(rec.nextUs).toBe(40);
    state.queue = 40;
    rec.sampleThrough(45, host);
    rec.endAt(45);
    rec.sampleEnd(45, host);
    const r = timeseriesResult(rec, ['i0']);
    expect(r.interval_ms).toBe(0.02);
    expect(r.t_ms).toEqual([0, 0.02, 0.04, 0.045]);
    expect(r.instances[0].queue_depth).toEqual([0, 20, 40, 40]);
  });

  it('an instance added mid-run is null before it existed, also across halving', () => {
    const { host, inst } = fakeHost();
    const insts = host.instances as unknown[];
    const rec = new TimeSeriesRecorder(10, 6, host);
    rec.sampleThrough(20, host); // 0, 10, 20 with one instance
    insts.push(inst);
    rec.sampleThrough(50, host); // 30, 40, 50: the sixth sample halves to 0, 20, 40
    const r = timeseriesResult(rec, ['a', 'b']);
    expect(r.t_ms).toEqual([0, 0.02, 0.04]);
    // b started at global index 3 (t=30): on the coarser grid its first sample is t=40.
    expect(r.instances[1].queue_depth).toEqual([null, null, 0]);
    expect(r.instances[0].queue_depth).toEqual([0, 0, 0]);
  });

  it('drops samples past the run end (stale deadlines popped after the last real event)', () => {
    const { host } = fakeHost();
    const rec = new TimeSeriesRecorder(10, 100, host);
    rec.sampleBefore(95, host); // 0..90
    rec.endAt(42);
    rec.sampleEnd(42, host);
    expect(timeseriesResult(rec, ['i0']).t_ms).toEqual([0, 0.01, 0.02, 0.03, 0.04, 0.042]);
  });
});

const withoutSeries = (r: SimulationResult) => {
  const { timeseries: _ts, ...rest } = r;
  return JSON.stringify(rest);
};

describe('time series on generated runs', () => {
  it('never changes the result, stays within the run and its cap, and its counts add up to the result', () => {
    const arb = fc.tuple(
      simulationConfigArb({ pd: 'sometimes', autoscaling: 'sometimes', kvTiers: 'sometimes', engineChecks: false }),
      fc.integer({ min: 500, max: 3_000_000 }),
      fc.oneof(fc.constant(10_000), fc.integer({ min: 2, max: 12 })),
    );
    fc.assert(
      fc.property(arb, ([config, intervalUs, maxSamples]) => {
        const plain = simulate(config);
        const r = simulate({ ...config, timeseriesIntervalUs: intervalUs, timeseriesMaxSamples: maxSamples });
        expect(withoutSeries(r)).toBe(withoutSeries(plain));
        const ts = r.timeseries!;
        const n = ts.t_ms.length;
        expect(n).toBeGreaterThan(0);
        expect(n).toBeLessThanOrEqual(maxSamples);
        // The interval is the one asked for, doubled once per halving.
        const doublings = Math.log2((ts.interval_ms * 1000) / intervalUs);
        expect(Number.isInteger(Math.round(doublings * 1e9) / 1e9)).toBe(true);
        const endMs = r.vllm_estimated_duration_s * 1000;
        for (let k = 1; k < n; k++) expect(ts.t_ms[k]).toBeGreaterThan(ts.t_ms[k - 1]);
        expect(ts.t_ms[n - 1]).toBeCloseTo(endMs, 6);
        expect(ts.instances.length).toBe(r.instances.length);
        ts.instances.forEach((s, i) => {
          expect(s.instance_id).toBe(r.instances[i].instance_id);
          const done = s.completed.reduce<number>((a, v) => a + (v ?? 0), 0);
          expect(done).toBe(r.instances[i].completed_requests);
          for (let k = 0; k < n; k++) {
            const u = s.kv_utilization[k];
            if (u !== null) expect(u >= 0 && u <= 1).toBe(true);
            const h = s.cache_hit_rate[k];
            if (h !== null) expect(h >= 0 && h <= 1).toBe(true);
            if (s.queue_depth[k] !== null) expect(s.queue_depth[k]! >= 0 && s.running[k]! >= 0).toBe(true);
          }
        });
        expect(ts.cluster.completed.reduce((a, v) => a + v, 0)).toBe(r.instances.reduce((a, b) => a + b.completed_requests, 0));
        // Present exactly when the run has the part they describe.
        expect(ts.cluster.kv_transfers !== undefined).toBe(r.pd !== undefined);
        expect(ts.cluster.replicas !== undefined).toBe(r.autoscaling !== undefined);
        if (r.autoscaling !== undefined) {
          const cost = ts.cluster.cost_usd!;
          for (let k = 1; k < n; k++) expect(cost[k]).toBeGreaterThanOrEqual(cost[k - 1] - 1e-12);
          expect(cost[n - 1]).toBeCloseTo(r.autoscaling.cost_usd, 9);
          expect(Math.max(...ts.cluster.replicas!)).toBeLessThanOrEqual(r.autoscaling.peak_replicas);
        }
      }),
      { numRuns: propertyRuns(60) },
    );
  });
});
