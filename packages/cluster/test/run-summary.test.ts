import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, prepareSimulation, runPrepared } from '../src/index.js';
import { runPreparedSummary } from '../src/internal.js';

// runPreparedSummary builds only what `blis evaluate` reads: each figure it has must be the
// figure runPrepared's full result has, whatever the run (P/D, KV tiers, a fleet, SLOs).

const spec = {
  kind: 'spec' as const,
  spec: {
    version: '2',
    seed: 4,
    aggregate_rate: 40,
    num_requests: 150,
    clients: [
      { id: 'a', tenant_id: 't1', slo_class: 'critical', rate_fraction: 0.6, prefix_group: 'p', prefix_length: 96, input_distribution: { type: 'gaussian', params: { mean: 400, std_dev: 100, min: 32, max: 1500 } }, output_distribution: { type: 'exponential', params: { mean: 80, max: 400 } } },
      { id: 'b', tenant_id: 't2', rate_fraction: 0.4, input_distribution: { type: 'constant', params: { value: 900 } }, output_distribution: { type: 'constant', params: { value: 40 } } },
    ],
  },
};
const model = { model: 'meta-llama/llama-3.1-8b-instruct' };

const configs: [string, SimulationConfigInput][] = [
  ['plain, with SLOs', { latencyModel: 'blackbox', numInstances: 3, totalKVBlocks: 300, workload: spec, sloTtftUs: 50_000, sloE2eUs: 900_000 }],
  ['P/D', { ...model, numInstances: 4, workload: spec, pd: { prefillInstances: 2, decodeInstances: 2, decider: 'always' } }],
  ['a CPU KV tier', { ...model, numInstances: 2, totalKVBlocks: 200, kvCpuBlocks: 2000, workload: spec }],
  [
    'a fleet on node pools',
    {
      ...model,
      hardware: 'H100',
      numInstances: 2,
      workload: spec,
      nodePools: [{ name: 'h100', gpuType: 'H100', gpusPerNode: 1, gpuMemoryGib: 80, initialNodes: 2, minNodes: 0, maxNodes: 2, costPerHour: 3, provisioningDelay: { meanUs: 0, stddevUs: 0 } }],
      lifecycle: { loadingDelay: { meanUs: 0, stddevUs: 0 }, warmStartInitialInstances: true },
    },
  ],
];

describe('runPreparedSummary', () => {
  it.each(configs)('%s: every figure is the full result\'s', (_what, config) => {
    const full = runPrepared(prepareSimulation(config)) as Record<string, unknown>;
    const summary = runPreparedSummary(prepareSimulation(config)) as unknown as Record<string, unknown>;
    expect(full.completed_requests).toBeGreaterThan(0);
    for (const k of Object.keys(summary)) expect(summary[k], k).toEqual(full[k]);
    // What runMetrics reads beyond the cluster block is there when the run has it.
    expect(summary.slo_attainment).toEqual(full.slo_attainment);
    expect('pd' in summary).toBe('pd' in full);
    expect('autoscaling' in summary).toBe('autoscaling' in full);
    expect(summary.instances).toBeUndefined();
  });

  it('the P/D, fleet and tiered runs do report pd, autoscaling and the tier rates', () => {
    expect(runPreparedSummary(prepareSimulation(configs[1][1])).pd).toBeDefined();
    expect(runPreparedSummary(prepareSimulation(configs[3][1])).autoscaling).toBeDefined();
    expect(runPreparedSummary(prepareSimulation(configs[2][1])).blis_mean_rates).toBeDefined();
  });

  it('a run with fitness weights is built in full', () => {
    const config: SimulationConfigInput = { ...configs[0][1], fitnessWeights: { throughput: 1 } };
    expect(runPreparedSummary(prepareSimulation(config))).toEqual(runPrepared(prepareSimulation(config)));
  });
});
