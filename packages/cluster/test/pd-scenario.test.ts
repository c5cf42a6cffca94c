import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, simulate } from '../src/index.js';

// The README's P/D findings, on shorter versions of its two workloads (Llama-3.1-8B, 4 H100s,
// monolithic against 2 prefill + 2 decode): what P/D buys on long prompts (no prefill in the
// decode steps: a lower ITL tail once a step may hold a whole prompt) and what it costs (the
// KV transfer and half the GPUs for prefill: a higher TTFT; half the GPUs for decode on long
// answers: higher ITL and E2E).

const spec = (name: string) => fileURLToPath(new URL(`../../../examples/workloads/${name}`, import.meta.url));
const N = 300;
const PD_2_2 = { prefillInstances: 2, decodeInstances: 2, decider: 'always' };

function run(file: string, extra: Partial<SimulationConfigInput> = {}) {
  const result = simulate({ model: 'meta-llama/llama-3.1-8b-instruct', numInstances: 4, workload: { kind: 'spec', path: spec(file), numRequests: N }, ...extra });
  expect(result.completed_requests).toBe(N);
  return result;
}

describe('P/D disaggregation against a monolithic cluster of the same size', () => {
  it('long prompts, whole prompts in a step: P/D lowers the ITL tail and raises TTFT', () => {
    const mono = run('pd-long-prompts.yaml', { maxNumBatchedTokens: 8192 });
    const pd = run('pd-long-prompts.yaml', { maxNumBatchedTokens: 8192, pd: PD_2_2 });
    expect(pd.pd!.disaggregated_requests).toBe(N);
    expect(pd.itl_p99_ms).toBeLessThan(0.8 * mono.itl_p99_ms);
    // At least the ~32 ms transfer of a ~6,000-token prompt's KV at 25 GB/s.
    expect(pd.pd!.kv_transfer_duration.mean_ms).toBeGreaterThan(25);
    expect(pd.ttft_mean_ms).toBeGreaterThan(mono.ttft_mean_ms + 25);
  });

  it('long answers: P/D with half the GPUs decoding raises ITL and E2E; 1P+3D loses less', () => {
    const mono = run('pd-long-outputs.yaml');
    const pd = run('pd-long-outputs.yaml', { pd: PD_2_2 });
    const pd13 = run('pd-long-outputs.yaml', { pd: { ...PD_2_2, prefillInstances: 1, decodeInstances: 3 } });
    expect(pd.itl_mean_ms).toBeGreaterThan(1.15 * mono.itl_mean_ms);
    expect(pd.e2e_mean_ms).toBeGreaterThan(1.15 * mono.e2e_mean_ms);
    expect(pd13.e2e_mean_ms).toBeGreaterThan(mono.e2e_mean_ms);
    expect(pd13.e2e_mean_ms).toBeLessThan(pd.e2e_mean_ms);
  });
});
