import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunLimitError, type SimulationConfigInput, estimateSimulation, prepareSimulation } from '../src/index.js';

// estimateSimulation is prepareSimulation stopped after the memory estimate: the same figure and
// the same refusals, with nothing built (a capacity search asks it of its largest probe first).

const tmp = mkdtempSync(join(tmpdir(), 'blis-estimate-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('estimateSimulation', () => {
  it('gives the estimate prepareSimulation computes, for each kind of workload', () => {
    const trace = join(tmp, 't.jsonl');
    writeFileSync(trace, '{"timestamp": 0, "input_length": 10, "output_length": 5}\n'.repeat(3));
    const spec = join(tmp, 'spec.yaml');
    writeFileSync(spec, 'version: "2"\nseed: 1\naggregate_rate: 10\nnum_requests: 7\nclients:\n  - id: a\n    rate_fraction: 1\n    arrival: {process: poisson}\n    input_distribution: {type: constant, params: {value: 10}}\n    output_distribution: {type: constant, params: {value: 5}}\n');
    const configs: SimulationConfigInput[] = [
      { latencyModel: 'blackbox', numInstances: 3, totalKVBlocks: 500, workload: { kind: 'synthetic', numRequests: 9 } },
      { latencyModel: 'blackbox', totalKVBlocks: 500, workload: { kind: 'trace', path: trace } },
      { latencyModel: 'blackbox', totalKVBlocks: 500, includeRequests: true, workload: { kind: 'spec', path: spec } },
    ];
    for (const c of configs) expect(estimateSimulation(c)).toEqual(prepareSimulation(c).memory);
  });

  it('refuses as prepareSimulation does, before building anything', () => {
    const big: SimulationConfigInput = { latencyModel: 'blackbox', numInstances: 1000, totalKVBlocks: 1_000_000, workload: { kind: 'synthetic', numRequests: 5 } };
    expect(() => estimateSimulation(big, { memoryLimit: { bytes: 2 ** 30, what: 'a test' } })).toThrow(RunLimitError);
    // Without a limit it answers at once, although building the run would take 46 GiB.
    expect(estimateSimulation(big).totalBytes).toBeGreaterThan(40 * 2 ** 30);
  });
});
