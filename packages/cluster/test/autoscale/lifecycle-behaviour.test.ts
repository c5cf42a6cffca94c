import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, prepareSimulation, runPrepared, simulate } from '../../src/index.js';
import { sampleDelay } from '../../src/autoscale/autoscale-schema.js';
import { simulateChecked } from '../../src/testing/index.js';
import { ScaleLog, scripted, steadyLoad } from './helpers.js';

const S = 1_000_000;

const N = 1200;

/** 4 replicas under a load that keeps queues long; at 10 s two are drained. INV-1 is checked at the end. */
function drainRun(drainPolicy: 'wait' | 'immediate' | 'redirect') {
  const log = new ScaleLog();
  const prepared = prepareSimulation(
    {
      numInstances: 4,
      maxNumSeqs: 8,
      workload: { kind: 'synthetic', rate: 60, numRequests: N, promptTokens: 512, outputTokens: 256, timeoutUs: 0 },
      autoscaling: { intervalUs: 10 * S, minReplicas: 1 },
      lifecycle: { drainPolicy },
    },
    { observer: log, autoscaler: () => scripted((ctx) => (ctx.nowUs === 10 * S ? -2 : 0)) },
  );
  const r = runPrepared(prepared);
  prepared.cluster.checkConservation();
  return { r, log };
}

describe('drain policies', () => {
  it('wait: the drained replicas serve what they hold, then terminate; every request completes', () => {
    const { r, log } = drainRun('wait');
    expect(r.completed_requests).toBe(N);
    expect(r.autoscaling!.drained_dropped).toBe(0);
    const drained = log.states.filter((s) => s.state === 'draining').map((s) => s.instance);
    expect(drained).toEqual([0, 1]);
    for (const i of drained) {
      const tl = log.timeline(i);
      expect(tl.at(-1)![1]).toBe('terminated');
      expect(tl.at(-1)![0]).toBeGreaterThan(10); // they had work left
    }
  });

  it('immediate: queued and running requests are discarded and counted (INV-1 with the drained bucket)', () => {
    const { r, log } = drainRun('immediate');
    const a = r.autoscaling!;
    expect(a.drained_dropped).toBeGreaterThan(0);
    expect(r.completed_requests + a.drained_dropped).toBe(N);
    for (const i of [0, 1]) expect(log.timeline(i).slice(-2)).toEqual([
      [10, 'draining'],
      [10, 'terminated'],
    ]);
  });

  it('redirect: queued requests go back through admission and complete elsewhere', () => {
    const { r } = drainRun('redirect');
    expect(r.autoscaling!.redirected).toBeGreaterThan(0);
    expect(r.autoscaling!.drained_dropped).toBe(0);
    expect(r.completed_requests).toBe(N);
  });

  it('an idle replica that is drained terminates at once (BLIS leaks it, holding its GPUs)', () => {
    const log = new ScaleLog();
    const r = simulate(
      { numInstances: 3, horizonUs: 60 * S, workload: steadyLoad(100, 0.2), autoscaling: { intervalUs: 10 * S } },
      { observer: log, autoscaler: () => scripted((ctx) => (ctx.nowUs === 30 * S ? -1 : 0)) },
    );
    expect(log.timeline(0).slice(-2)).toEqual([
      [30, 'draining'],
      [30, 'terminated'],
    ]);
    expect(r.autoscaling!.final_replicas).toBe(2);
  });
});

describe("BLIS's autoscaling failures, fixed", () => {
  it('wva-saturation on an idle deployment keeps min_replicas (BLIS drains every replica)', () => {
    const r = simulate({ numInstances: 4, workload: steadyLoad(200, 0.1), autoscaling: { intervalUs: 10 * S, minReplicas: 1 } });
    expect(r.autoscaling!.final_replicas).toBe(1);
    expect(r.completed_requests).toBe(20);
  });

  it('with min_replicas 0 a deployment scales to zero when idle and back up when requests arrive', () => {
    const log = new ScaleLog();
    const r = simulate(
      {
        numInstances: 2,
        workload: {
          kind: 'spec',
          spec: {
            version: '2',
            seed: 7,
            aggregate_rate: 5,
            num_requests: 100,
            clients: [
              {
                id: 'bursty',
                rate_fraction: 1,
                arrival: { process: 'constant' },
                input_distribution: { type: 'constant', params: { value: 64 } },
                output_distribution: { type: 'constant', params: { value: 16 } },
                lifecycle: { windows: [{ start_us: 0, end_us: 10 * S }, { start_us: 100 * S, end_us: 200 * S }] },
              },
            ],
          },
        },
        autoscaling: { intervalUs: 10 * S, minReplicas: 0 },
        lifecycle: { loadingDelay: { meanUs: 20 * S } },
        checkInvariants: true,
      },
      { observer: log },
    );
    expect(r.completed_requests).toBe(100);
    const zero = log.actions.find(({ a }) => a.after === 0);
    expect(zero).toBeDefined();
    const back = log.actions.find(({ now, a }) => now > zero!.now && a.after > a.before);
    expect(back).toBeDefined();
    // The requests that found no replica waited for the new one (20 s of loading), they were not rejected.
    expect(r.rejected_requests).toBe(0);
    expect(r.ttft_p99_ms).toBeGreaterThan(10_000);
  });

  it('scale-up works without node pools (an unlimited pool of the run hardware; BLIS always fails)', () => {
    const r = simulate(
      { numInstances: 1, workload: steadyLoad(60, 5), autoscaling: { intervalUs: 5 * S, maxReplicas: 3 } },
      { autoscaler: () => scripted((ctx) => (ctx.nowUs === 5 * S ? 5 : 0)) },
    );
    const a = r.autoscaling!;
    // +5 asked, clamped to max_replicas 3.
    expect([a.scale_up_events, a.replicas_added, a.peak_replicas, a.unplaced_replicas, a.nodes_provisioned]).toEqual([1, 2, 3, 0, 2]);
    expect(r.instances[1].completed_requests).toBeGreaterThan(0);
  });

  it('a full node pool provisions a node, and the replica waits for it (BLIS never provisions)', () => {
    const log = new ScaleLog();
    const r = simulate(
      {
        numInstances: 1,
        horizonUs: 200 * S,
        workload: steadyLoad(300),
        autoscaling: { intervalUs: 10 * S },
        nodePools: [{ name: 'a', gpuType: 'H100', gpusPerNode: 1, gpuMemoryGib: 80, initialNodes: 1, maxNodes: 2, provisioningDelay: { meanUs: 90 * S } }],
        lifecycle: { warmStartInitialInstances: true, loadingDelay: { meanUs: 30 * S } },
      },
      { observer: log, autoscaler: () => scripted((ctx) => (ctx.nowUs === 10 * S ? 1 : 0)) },
    );
    expect(r.autoscaling!.nodes_provisioned).toBe(1);
    expect(log.timeline(1)).toEqual([
      [10, 'scheduling'],
      [100, 'loading'],
      [130, 'active'],
    ]);
  });

  it('a pool at max_nodes leaves the replica waiting for a node, counted as unplaced', () => {
    const r = simulate(
      {
        numInstances: 1,
        horizonUs: 100 * S,
        workload: steadyLoad(300),
        autoscaling: { intervalUs: 10 * S },
        nodePools: [{ name: 'a', gpuType: 'H100', gpusPerNode: 1, gpuMemoryGib: 80, initialNodes: 1, maxNodes: 1 }],
        lifecycle: { warmStartInitialInstances: true },
      },
      { autoscaler: () => scripted((ctx) => (ctx.nowUs === 10 * S ? 1 : 0)) },
    );
    expect(r.autoscaling!.unplaced_replicas).toBe(1);
    expect(r.autoscaling!.final_replicas).toBe(1);
  });
});

describe('scale-down victims', () => {
  it('drains the oldest active replicas by start time (BLIS: the smallest ids, so instance_10 before instance_2)', () => {
    const log = new ScaleLog();
    simulate(
      { numInstances: 3, horizonUs: 60 * S, workload: steadyLoad(100, 0.2), autoscaling: { intervalUs: 10 * S } },
      { observer: log, autoscaler: () => scripted((ctx) => (ctx.nowUs === 10 * S ? 8 : ctx.nowUs === 30 * S ? -3 : 0)) },
    );
    // instance_3 .. instance_10 started at 10 s; instance_0 .. instance_2 at 0 s.
    expect(log.actions.map(({ now, a }) => [now / S, a.instances])).toEqual([
      [10, ['instance_3', 'instance_4', 'instance_5', 'instance_6', 'instance_7', 'instance_8', 'instance_9', 'instance_10']],
      [30, ['instance_0', 'instance_1', 'instance_2']],
    ]);
  });

  it('cancels replicas still loading before it drains serving ones, newest first', () => {
    const log = new ScaleLog();
    simulate(
      { numInstances: 2, horizonUs: 60 * S, workload: steadyLoad(100, 0.2), autoscaling: { intervalUs: 10 * S }, lifecycle: { loadingDelay: { meanUs: 100 * S } } },
      { observer: log, autoscaler: () => scripted((ctx) => (ctx.nowUs === 10 * S ? 1 : ctx.nowUs === 20 * S ? 1 : ctx.nowUs === 30 * S ? -3 : 0)) },
    );
    expect(log.actions.at(-1)!.a.instances).toEqual(['instance_3', 'instance_2', 'instance_0']);
    expect(log.timeline(3)).toEqual([
      [20, 'loading'],
      [30, 'terminated'],
    ]);
  });
});

describe('off means off', () => {
  it('an autoscaler interval of 0 gives exactly the run without autoscaling', () => {
    const base = { numInstances: 3, workload: { kind: 'synthetic', rate: 30, numRequests: 400 } } as const;
    const off = simulate({ ...base, autoscaling: { intervalUs: 0, maxReplicas: 9 } });
    expect(JSON.stringify(off)).toBe(JSON.stringify(simulate(base)));
    expect(off.autoscaling).toBeUndefined();
  });

  it('a lifecycle with nothing to do routes exactly as without one', () => {
    const base = { numInstances: 3, workload: { kind: 'synthetic', rate: 30, numRequests: 400 }, includeRequests: true } as const;
    const withLc = simulate({ ...base, lifecycle: {} });
    const plain = simulate(base);
    expect(withLc.requests).toEqual(plain.requests);
    expect(withLc.autoscaling!.replica_seconds).toBeCloseTo((3 * withLc.vllm_estimated_duration_s) as number, 6);
  });
});

describe('autoscaling with P/D pools', () => {
  it('scales the decode pool on its own, and new pods join it', () => {
    const log = new ScaleLog();
    const prepared = prepareSimulation(
      {
        numInstances: 2,
        pd: { prefillInstances: 1, decodeInstances: 1, decider: 'always' },
        workload: { kind: 'synthetic', rate: 10, numRequests: 200, promptTokens: 256, outputTokens: 64, timeoutUs: 0 },
        autoscaling: { intervalUs: 5 * S },
      },
      { observer: log, autoscaler: (pool) => scripted((ctx) => (pool === 'decode' && ctx.nowUs === 5 * S ? 2 : 0)) },
    );
    const r = runPrepared(prepared);
    prepared.cluster.checkConservation();
    expect(log.actions.map(({ a }) => [a.pool, a.before, a.after])).toEqual([['decode', 1, 3]]);
    expect(r.completed_requests).toBe(200);
    const pools = r.instances.map((b) => b.pool);
    expect(pools).toEqual(['prefill', 'decode', 'decode', 'decode']);
    // The new decode pods took decode parts.
    expect(r.instances[2].completed_requests + r.instances[3].completed_requests).toBeGreaterThan(0);
  });
});

describe('sampled delays are whole microseconds', () => {
  it('a delay with a standard deviation truncates its draw to µs, as BLIS does; a constant one too', () => {
    expect(sampleDelay({ meanUs: 1000, stddevUs: 100 }, () => 0.123456)).toBe(1012);
    expect(sampleDelay({ meanUs: 1000, stddevUs: 100 }, () => -20)).toBe(0);
    expect(sampleDelay({ meanUs: 1000.7, stddevUs: 0 }, () => Number.NaN)).toBe(1000);
  });

  it('delays drawn with a deviation beside a KV offload chain run (found by the cluster kit: fractional ticks reached the tiers)', () => {
    // The shrunk counterexample: a scrape delay with a deviation put a fractional time on the
    // event queue, and the NVMe tier refused it ("submit tick must be an integer").
    const config = {seed:  1893038498, numInstances:  2, totalKVBlocks:  296, maxNumSeqs:  2, maxNumBatchedTokens:  756, maxModelLen:  0, routing:  {policy:  'weighted', params:  {}, scorers:  [{name:  'prefix-affinity', weight:  0.8213787368567412}]}, admission:  {policy:  'tenant-quota', params:  {maxInFlight:  11, allowBorrowing:  false}}, scheduler:  {policy:  'fcfs', params:  {}}, priority:  {policy:  'inverted-slo', params:  {}}, preemptionPolicy:  'fcfs', snapshotRefreshIntervalUs:  50000, cacheSignalDelayUs:  50000, admissionLatencyUs:  500, routingLatencyUs:  2000, flowControl:  {enabled:  false, maxGatewayQueueDepth:  5, queueDepthThreshold:  1, kvUtilizationThreshold:  1, saturationLimit:  1}, workload:  {kind:  'spec', spec:  {version:  '2', seed:  14, aggregate_rate:  50, num_requests:  3, clients:  [{id:  'client-0', slo_class:  'background', tenant_id:  'a', rate_fraction:  1, arrival:  {process:  'gamma', cv:  2}, input_distribution:  {type:  'gaussian', params:  {mean:  795, std_dev:  1, min:  1, max:  900}}, output_distribution:  {type:  'gaussian', params:  {mean:  2, std_dev:  5, min:  1, max:  40}}, prefix_group:  'g1', prefix_length:  163, timeout:  0}]}}, checkInvariants:  true, includeRequests:  true, autoscaling:  {intervalUs:  848733, policy:  'target-utilization', minReplicas:  1, maxReplicas:  5, scaleUpStabilizationWindowUs:  0, scaleDownStabilizationWindowUs:  5000000, cooldownUs:  4000000, scrapeDelay:  {meanUs:  1095630, stddevUs:  1000000}}, lifecycle:  {loadingDelay:  {meanUs:  5525446, stddevUs:  1000000}, warmUpRequestCount:  3, warmUpDurationUs:  0, warmUpTtftFactor:  1.5, drainPolicy:  'wait', warmStartInitialInstances:  false}, nodePools:  [{name:  'p', gpuType:  'H100', gpusPerNode:  2, gpuMemoryGib:  80, initialNodes:  1, maxNodes:  3, provisioningDelay:  {meanUs:  19999990, stddevUs:  0}}], kvOffload:  {cpuBytesToUse:  8388608, secondaryTiers:  [{type:  'fs', rootDir:  '/mnt/nvme', directIo:  true, deviceClass:  'nvme_gen4', latencyJitterStddev:  0}]}} as SimulationConfigInput;
    expect(simulate(config).completed_requests).toBe(3);
  });
});

describe('a replica drained while a request travels to it', () => {
  it('the request is routed again on arrival, and the cluster kit accepts the second routing (CI seed 101460823)', () => {
    // Round-robin sends the only request (arriving at 1 s) to instance_0; it lands 2 ms later
    // (routing latency). 1 ms after it left, the scripted policy drains instance_0, idle, so it
    // terminates at once.
    const config: SimulationConfigInput = {
      numInstances: 2,
      routing: { policy: 'round-robin' },
      routingLatencyUs: 2000,
      workload: steadyLoad(1),
      autoscaling: { intervalUs: 1000, minReplicas: 1, scaleDownStabilizationWindowUs: 0, cooldownUs: 0 },
      lifecycle: { drainPolicy: 'immediate' },
      includeRequests: true,
    };
    const checked = simulateChecked(config, { autoscaler: () => scripted((ctx) => (ctx.nowUs === 1_001_000 ? -1 : 0)) });
    expect(checked.violations).toEqual([]);
    const routings = checked.log.events.filter((e) => e.kind === 'routing').map((e) => (e as { instance: number }).instance);
    expect(routings).toEqual([0, 1]);
    expect(checked.result!.completed_requests).toBe(1);
    expect(checked.result!.requests![0].handled_by).toBe('instance_1');
  });
});
