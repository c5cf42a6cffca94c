import { ArrayRequestSource } from '@blis/engine';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, prepareSimulation, runPrepared, simulate } from '../src/index.js';
import { byId, onePlusOne, pd2Latency, req, us, withoutPd } from './pd-example-helpers.js';

// What a disaggregated parent reports (its parts' scheduling delay and ITL), and `never` on
// shared pods giving the monolithic run. Times are µs unless named _ms.

describe('what a parent reports', () => {
  it("its scheduling delay is its prefill part's, its ITL its decode part's", () => {
    // Budget 1000 tokens: one prompt per prefill step. Decode steps take 6000 + 2000 per sequence.
    //   A: prefill 0 → 30,000, transfer → 35,335, 9 decode steps (10 outputs).
    //   B: prefill 30,000 → 60,000 (scheduling delay 30,000), transfer → 65,335; it waits for
    //      A's step 59,335 → 67,335 and is scheduled at 67,335.
    //   A's steps: 4 alone (8000) 35,335 → 67,335; 3 with B (10,000) → 97,335; 2 alone → 113,335.
    //   A: TTFT 43,335; E2E 35,335 + 78,000 = 113,335; ITL 78,000 / 9.
    //   B: 3 steps with A: TTFT 67,335 + 10,000 = 77,335; E2E 97,335; ITL 10,000; scheduling delay
    //      30,000 (its decode part's would be 67,335).
    const prepared = prepareSimulation(onePlusOne({ decider: 'always' }, { maxNumBatchedTokens: 1000 }), {
      latency: pd2Latency(6000, 2000),
      source: new ArrayRequestSource([req(0, 0, 1000, 10, { id: 'A' }), req(1, 0, 1000, 4, { id: 'B' })]),
    });
    const r = runPrepared(prepared);
    const a = byId(r).get('A')!;
    const b = byId(r).get('B')!;
    expect([us(a.ttft_ms), us(a.e2e_ms), us(a.scheduling_delay_ms)]).toEqual([43_335, 113_335, 0]);
    expect(a.itl_ms * 1000).toBeCloseTo(78_000 / 9, 9);
    expect([us(b.ttft_ms), us(b.e2e_ms), us(b.itl_ms), us(b.scheduling_delay_ms)]).toEqual([77_335, 97_335, 10_000, 30_000]);
    // The same figures as the parts' on their pods, in completion order: prefill parts' scheduling
    // delays on instance_0 (A, B), decode parts' on instance_1 (B at 97,335, then A).
    const [prefillPod, decodePod] = prepared.cluster.instances.map((i) => i.metrics);
    expect([...prefillPod.requestIndex.view()]).toEqual([0, 1]);
    expect([...prefillPod.schedulingDelayUs.view()]).toEqual([0, 30_000]);
    expect([...decodePod.requestIndex.view()]).toEqual([1, 0]);
    expect([...decodePod.schedulingDelayUs.view()]).toEqual([67_335, 35_335]);
    expect([...decodePod.itlUs.view()]).toEqual([10_000, 78_000 / 9]);
    expect(decodePod.itlUs.get(1) / 1000).toBe(a.itl_ms);
    expect(decodePod.itlUs.get(0) / 1000).toBe(b.itl_ms);
    expect(r.scheduling_delay_p99_ms).toBeCloseTo(30, 0);
  });

  it('never on prefillDecodeInstances N is the monolithic N run once pd and the pools are removed', () => {
    const workload = { kind: 'synthetic' as const, rate: 40, numRequests: 120, promptTokens: 400, promptTokensStdev: 200, outputTokens: 60, outputTokensStdev: 30, prefixTokens: 64 };
    const routings: SimulationConfigInput['routing'][] = [
      { policy: 'round-robin' },
      { policy: 'least-loaded' },
      { policy: 'weighted', scorers: [{ name: 'precise-prefix-cache', weight: 2 }, { name: 'queue-depth', weight: 1 }] },
    ];
    for (const routing of routings) {
      const base: SimulationConfigInput = { numInstances: 3, seed: 11, latencyModel: 'blackbox', totalKVBlocks: 600, checkInvariants: true, includeRequests: true, routing, workload };
      const mono = simulate(base);
      const pd = simulate({ ...base, pd: { prefillDecodeInstances: 3, decider: 'never' } });
      expect(pd.pd!.local_requests).toBe(120);
      expect(pd.pd!.pools.shared).toEqual(['instance_0', 'instance_1', 'instance_2']);
      expect(JSON.stringify(withoutPd(pd))).toBe(JSON.stringify(mono));
    }
  });
});
