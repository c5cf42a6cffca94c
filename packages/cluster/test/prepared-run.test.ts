import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, prepareSimulation, runPrepared, simulate } from '../src/index.js';

// prepareSimulation + runPrepared is simulate() in two steps, for a caller that attaches to the
// run in between (a trace recorder); `endUs` is what such a caller needs after it, without
// reaching into the engine (`prepared.cluster`, @blis/cluster/internal).

const base: SimulationConfigInput = { latencyModel: 'blackbox', numInstances: 2, totalKVBlocks: 500, workload: { kind: 'synthetic', numRequests: 20, rate: 10 } };

describe('PreparedRun', () => {
  it('gives the result simulate() gives', () => {
    expect(JSON.stringify(runPrepared(prepareSimulation(base)))).toBe(JSON.stringify(simulate(base)));
  });

  it('reports the simulated end time: 0 before the run, the horizon when the horizon cuts it', () => {
    // 20 requests at 10/s arrive over ~2 s: a 0.5 s horizon ends the run with requests left.
    const prepared = prepareSimulation({ ...base, horizonUs: 500_000 });
    expect(prepared.endUs).toBe(0);
    runPrepared(prepared);
    expect(prepared.endUs).toBe(500_000);
  });

  it('reports the last event when the run drains before its horizon', () => {
    const prepared = prepareSimulation(base);
    const result = runPrepared(prepared);
    expect(prepared.endUs).toBe(prepared.cluster.endUs);
    expect(prepared.endUs).toBeGreaterThan(1_900_000); // the 20th arrival is at 1.9 s
    expect(result.completed_requests).toBe(20);
  });
});
