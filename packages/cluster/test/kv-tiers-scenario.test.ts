import { fileURLToPath } from 'node:url';
import { MemorySink, TraceRecorder } from '@blis/trace';
import { describe, expect, it } from 'vitest';
import { prepareSimulation, runPrepared, simulate } from '../src/index.js';

// What a CPU KV tier is for, end to end through simulate(): long multi-turn chats whose contexts
// outgrow the GPU cache (examples/workloads/long-chat-kv-tier.yaml, 40 sessions here).

const specPath = fileURLToPath(new URL('../../../examples/workloads/long-chat-kv-tier.yaml', import.meta.url));
const base = {
  model: 'meta-llama/llama-3.1-8b-instruct',
  totalKVBlocks: 6000,
  workload: { kind: 'spec' as const, path: specPath, numRequests: 200 },
};

describe('a CPU KV tier under long multi-turn contexts', () => {
  it('raises the cache hit rate and lowers TTFT: the next round reloads what other sessions evicted', () => {
    const gpuOnly = simulate(base);
    const tiered = simulate({ ...base, kvCpuBlocks: 65_536 });
    // num_requests counts the sessions' first rounds; their follow-ups come on top (BLIS's count).
    for (const r of [gpuOnly, tiered]) {
      expect(r.completed_requests).toBe(r.injected_requests);
      expect(r.completed_requests).toBeGreaterThan(200);
    }
    expect(gpuOnly.kv_tiers).toBeUndefined();
    expect(tiered.kv_tiers!.reloaded_blocks).toBeGreaterThan(0);
    expect(tiered.cache_hit_rate).toBeGreaterThan(gpuOnly.cache_hit_rate + 0.3);
    expect(tiered.ttft_mean_ms).toBeLessThan(gpuOnly.ttft_mean_ms);
    // Every reload costs ceil(16 / 100) = 1 µs of its step at the default bandwidth.
    expect(tiered.kv_tiers!.transfer_latency_us).toBe(tiered.kv_tiers!.reloaded_blocks);
  });

  it('reports CPU-tier churn as kv_thrashing anomalies when the CPU tier is too small to keep a round', () => {
    const recorder = new TraceRecorder({ level: 'decisions', sink: new MemorySink() });
    const prepared = prepareSimulation({ ...base, kvCpuBlocks: 64 }, { observer: recorder });
    const result = runPrepared(prepared);
    const report = recorder.finish(prepared.cluster.endUs);
    const evictions = result.kv_tiers!.cpu_evictions;
    expect(evictions).toBeGreaterThan(0);
    // Every eviction of a 64-block tier under this load drops a block stored moments before.
    expect(report.anomalies.kv_thrashing.count).toBeGreaterThan(0);
    expect(report.anomalies.kv_thrashing.count).toBeLessThanOrEqual(evictions);
    expect(result.kv_thrashing_rate).toBeCloseTo(evictions / result.kv_tiers!.mirrored_blocks, 12);
  });

  it('is deterministic with transfer jitter on: the offload chain draws from its own seeded stream', () => {
    const config = {
      ...base,
      workload: { ...base.workload, numRequests: 100 },
      totalKVBlocks: 3000,
      kvOffload: {
        cpuBytesToUse: 512 * 2_097_152,
        secondaryTiers: [{ type: 'fs' as const, rootDir: '/mnt/nvme', directIo: true, deviceClass: 'nvme_gen4', latencyJitterStddev: 0.3 }],
      },
    };
    const a = simulate(config);
    const b = simulate(config);
    expect(b).toEqual(a);
    expect(a.kv_tiers!.model).toBe('offload');
    expect(a.kv_tiers!.promotions_fired + a.kv_tiers!.deferrals).toBeGreaterThan(0);
  });
});

