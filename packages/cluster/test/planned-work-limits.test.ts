import { describe, expect, it } from 'vitest';
import { RUN_LIMITS, RunLimitError, type SimulationConfigInput, SimulationConfigSchema, simulate } from '../src/index.js';
import { autoscalerTickIssues } from '../src/limits/autoscaler-ticks.js';
import { fleetCeiling } from '../src/limits/fleet-ceiling.js';
import type { MemoryEstimate } from '../src/limits/memory-estimate.js';
import { unplaceableGroupIssues } from '../src/limits/unplaceable-groups.js';

// docs/limits.md: small inputs that plan unbounded work (autoscaler ticks, a policy's scale-up)
// and fleets no node pool can host are refused, with the count, the limit and the field.

const MODEL = 'meta-llama/llama-3.1-8b-instruct';
const parse = (c: SimulationConfigInput) => SimulationConfigSchema.parse(c);

function refusal(f: () => unknown): RunLimitError {
  try {
    f();
  } catch (e) {
    if (e instanceof RunLimitError) return e;
    throw e;
  }
  throw new Error('no RunLimitError');
}

describe('autoscaler evaluations a run plans', () => {
  // 10 requests at 10 req/s arrive over 1 s = 10^6 µs: an evaluation every µs plans 10^6 + 1.
  const config = (intervalUs: number, extra: Partial<SimulationConfigInput> = {}) =>
    parse({ model: MODEL, autoscaling: { intervalUs }, workload: { kind: 'synthetic', numRequests: 10, rate: 10 }, ...extra });

  it('refuses the first interval past the limit and accepts the next', () => {
    expect(RUN_LIMITS.maxAutoscalerEvaluations).toBe(1_000_000);
    expect(autoscalerTickIssues(config(1))).toEqual([
      { path: ['autoscaling', 'intervalUs'], expected: 'at most 1000000 autoscaler evaluations (an interval of at least 1 µs over the 10 arrivals at 10 req/s, 1000000 µs)', found: '1 µs: 1000001 evaluations' },
    ]);
    expect(autoscalerTickIssues(config(2))).toEqual([]);
  });

  it('counts to the horizon when it comes first, and nothing when the autoscaler is off', () => {
    expect(autoscalerTickIssues(config(1, { horizonUs: 999_999 }))).toEqual([]);
    expect(autoscalerTickIssues(config(1, { horizonUs: 1_000_000 }))[0].found).toBe('1 µs: 1000001 evaluations');
    expect(autoscalerTickIssues(config(0))).toEqual([]);
  });
});

describe('the fleet ceiling', () => {
  const estimate = (totalBytes: number, heapBytes: number) => ({ totalBytes, heapBytes }) as MemoryEstimate;

  it('is the instance limit, or what the memory beside the estimate holds at the price of one more instance', () => {
    expect(fleetCeiling({ counted: 2, estimate: estimate(1000, 10), withOneMore: estimate(1100, 11), limit: undefined })).toEqual({ instances: RUN_LIMITS.maxInstances, why: 'the instance limit' });
    // 2 counted + ⌊(1550 − 1000) / 100⌋ = 7.
    expect(fleetCeiling({ counted: 2, estimate: estimate(1000, 10), withOneMore: estimate(1100, 11), limit: { bytes: 1550, what: 'a test' } }).instances).toBe(7);
    // The heap: 2 + ⌊(14 − 10) / 1⌋ = 6, below the machine's 7.
    const heap = fleetCeiling({ counted: 2, estimate: estimate(1000, 10), withOneMore: estimate(1100, 11), limit: { bytes: 1550, what: 'a test', heap: { bytes: 14, what: 'V8' } } });
    expect(heap.instances).toBe(6);
    expect(heap.why).toMatch(/^what V8's heap/);
  });

  it("stops a policy's scale-up past it, and a bounded autoscaler is clamped instead", () => {
    const run = (maxReplicas: number | undefined) =>
      simulate(
        { model: MODEL, latencyModel: 'blackbox', totalKVBlocks: 1000, autoscaling: { intervalUs: 1_000_000, ...(maxReplicas !== undefined ? { maxReplicas } : {}) }, workload: { kind: 'synthetic', numRequests: 5, rate: 10 } },
        { autoscaler: () => ({ name: 'huge', evaluate: () => ({ delta: 1e9, reason: 'asks for a billion' }) }) },
      );
    const e = refusal(() => run(undefined));
    expect(e.issues[0].path).toEqual(['autoscaling', 'maxReplicas']);
    expect(e.issues[0].found).toBe('scaling group monolithic from 1 to 1000000001 replicas at 0 µs: 1 + 1000000000 = 1000000001 instances');
    const bounded = run(3);
    expect(bounded.autoscaling?.peak_replicas).toBe(3);
  });
});

describe('fleets no node pool can host', () => {
  const pool = (gpuType: string, gpusPerNode: number, maxNodes = 4) => ({ name: `p-${gpuType}`, gpuType, gpusPerNode, gpuMemoryGib: 80, initialNodes: 0, minNodes: 0, maxNodes, provisioningDelay: { meanUs: 0, stddevUs: 0 }, costPerHour: 0 });
  const group = (gpuType: string, tp: number) => ({ pool: 'monolithic' as const, gpuType, tp, kvCapacityTokens: 1 });

  it('names the GPU type, the GPUs per node or the node count that is missing', () => {
    expect(unplaceableGroupIssues(undefined, [group('H100', 1)])).toEqual([]);
    expect(unplaceableGroupIssues([pool('TPUv9', 8)], [group('', 1)])).toEqual([]);
    expect(unplaceableGroupIssues([pool('TPUv9', 8)], [group('H100', 1)])[0].expected).toBe('a node pool of GPU type H100 for the replicas on H100 at TP 1');
    expect(unplaceableGroupIssues([pool('h100', 1)], [group('H100', 2)])[0].expected).toBe('a H100 node pool with at least 2 GPUs per node for the replicas on H100 at TP 2');
    expect(unplaceableGroupIssues([pool('H100', 8, 0)], [group('H100', 1)])[0].expected).toBe('a node pool that may hold a node (max_nodes >= 1) for the replicas on H100 at TP 1');
    expect(unplaceableGroupIssues([pool('A100', 1), pool('H100', 2)], [group('H100', 2)])).toEqual([]);
  });

  it('refuses the run before it starts', () => {
    const e = refusal(() => simulate({ model: MODEL, hardware: 'H100', nodePools: [pool('TPUv9', 8)], workload: { kind: 'synthetic', numRequests: 5, rate: 10 } }));
    expect(e.issues.map((i) => i.path)).toEqual([['nodePools']]);
  });
});
