import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, type SimulationResult, simulate } from '../../src/index.js';

// The README's autoscaling scenario: examples/workloads/autoscale-step.yaml (14 -> 56 -> 14
// req/s) on the deployment of examples/workloads/autoscale-demo-policy.yaml, as config.
const STEP = fileURLToPath(new URL('../../../../examples/workloads/autoscale-step.yaml', import.meta.url));
const S = 1_000_000;

function run(instances: number, policy: string | undefined): SimulationResult {
  const config: SimulationConfigInput = {
    model: 'meta-llama/llama-3.1-8b-instruct',
    hardware: 'H100',
    latencyModel: 'blackbox',
    numInstances: instances,
    routing: { policy: 'weighted' },
    workload: { kind: 'spec', path: STEP },
    includeRequests: true,
    nodePools: [{ name: 'h100', gpuType: 'H100', gpusPerNode: 8, gpuMemoryGib: 80, initialNodes: 1, minNodes: 1, maxNodes: 2, costPerHour: 4 }],
    lifecycle: { loadingDelay: { meanUs: 60 * S }, warmStartInitialInstances: true },
    ...(policy !== undefined
      ? { autoscaling: { intervalUs: 15 * S, policy, minReplicas: 2, maxReplicas: 12, scaleDownStabilizationWindowUs: 120 * S } }
      : {}),
  };
  return simulate(config);
}

/** TTFT p99 (ms) of the requests that arrived in [fromS, toS). */
function ttftP99(r: SimulationResult, fromS: number, toS: number): number {
  const xs = r.requests!.filter((q) => q.arrival_ms >= fromS * 1000 && q.arrival_ms < toS * 1000).map((q) => q.ttft_ms);
  xs.sort((a, b) => a - b);
  return xs[Math.min(xs.length - 1, Math.floor(0.99 * xs.length))];
}

describe('autoscaling scenario: a 4x load step on 2 replicas', () => {
  const fixed2 = run(2, undefined);
  const fixed8 = run(8, undefined);
  const scaled = run(2, 'queue-depth');

  it('replicas rise with the step and fall after it', () => {
    const a = scaled.autoscaling!;
    expect(a.peak_replicas).toBeGreaterThan(6);
    expect(a.final_replicas).toBeLessThan(a.peak_replicas);
    expect(a.replicas_drained).toBeGreaterThan(0);
    expect(scaled.completed_requests).toBe(fixed2.completed_requests);
  });

  it('TTFT p99 recovers once the new replicas have loaded, where 2 fixed replicas never do', () => {
    // The first two minutes of the step include the 60 s load; afterwards the added replicas serve.
    expect(ttftP99(scaled, 420, 900)).toBeLessThan(1000);
    expect(ttftP99(fixed2, 420, 900)).toBeGreaterThan(60_000);
    expect(ttftP99(scaled, 900, 1500)).toBeLessThan(1000);
  });

  it('costs more than the small deployment and less than the one sized for the peak', () => {
    const cost = (r: SimulationResult) => r.autoscaling!.cost_usd;
    expect(cost(scaled)).toBeGreaterThan(cost(fixed2));
    expect(cost(scaled)).toBeLessThan(cost(fixed8));
    // $4/h per replica: a fixed deployment costs its size x the run's length.
    expect(cost(fixed8)).toBeCloseTo((8 * 4 * fixed8.autoscaling!.replica_seconds) / 8 / 3600, 6);
  });
});
