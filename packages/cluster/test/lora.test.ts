import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonlFileSink, type RoutingRecord, TraceRecorder, readTraceFile, summarizeTrace } from '@blis/trace';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, simulate } from '../src/index.js';

// LoRA through the library: the config block, the scorer over snapshot resident sets, results.

const ADAPTERS = ['a', 'b', 'c', 'd'];
const spec = {
  version: '2',
  seed: 7,
  aggregate_rate: 20,
  num_requests: 160,
  clients: ADAPTERS.map((x) => ({
    id: x,
    rate_fraction: 0.25,
    adapter: `ad-${x}`,
    input_distribution: { type: 'constant', params: { value: 256 } },
    output_distribution: { type: 'constant', params: { value: 32 } },
  })),
};
const registry = ADAPTERS.map((x, i) => ({ id: `ad-${x}`, rank: 8 * (i + 1) }));
const base: SimulationConfigInput = { numInstances: 2, totalKVBlocks: 5000, workload: { kind: 'spec', spec }, checkInvariants: true };

describe('LoRA serving in a cluster', () => {
  it('TTFT grows as the resident slots fall below the hot adapters', async () => {
    const ttft = [];
    for (const cap of [1, 2, 4]) {
      const r = await simulate({ ...base, lora: { adapters: registry, adapterCapacity: cap } });
      expect(r.completed_requests).toBe(160);
      ttft.push(r.ttft_mean_ms);
      const loads = Object.values(r.adapters!).reduce((n, a) => n + a.load_count, 0);
      // Every instance loads each adapter at least once; with every adapter resident, only once.
      if (cap === 4) expect(loads).toBe(8);
      else expect(loads).toBeGreaterThan(8);
    }
    expect(ttft[0]).toBeGreaterThan(ttft[1]);
    expect(ttft[1]).toBeGreaterThan(ttft[2]);
  });

  it('declares one slot per instance when adapters come without a capacity (vLLM --max-loras default)', async () => {
    const one = await simulate({ ...base, lora: { adapters: registry, adapterCapacity: 1 } });
    const unset = await simulate({ ...base, lora: { adapters: registry } });
    expect(unset).toEqual(one);
  });

  it('is off without adapters: the same result, no adapters block', async () => {
    const plain = { ...base, workload: { kind: 'spec' as const, spec: { ...spec, clients: spec.clients.map(({ adapter: _, ...c }) => c) } } };
    const off = await simulate(plain);
    const declaredEmpty = await simulate({ ...plain, lora: { adapterCapacity: 3 } });
    expect(declaredEmpty).toEqual(off);
    expect(off.adapters).toBeUndefined();
  });

  it('lora-affinity keeps an adapter on the instances that hold it', async () => {
    const routing = (scorers: { name: string; weight: number }[]) => ({ policy: 'weighted', scorers });
    const cfg = { ...base, numInstances: 4, snapshotRefreshIntervalUs: 0, lora: { adapters: registry, adapterCapacity: 1 } };
    const blind = await simulate({ ...cfg, routing: routing([{ name: 'queue-depth', weight: 1 }]) });
    const aware = await simulate({ ...cfg, routing: routing([{ name: 'queue-depth', weight: 1 }, { name: 'lora-affinity', weight: 3 }]) });
    const loads = (r: typeof blind) => Object.values(r.adapters!).reduce((n, a) => n + a.load_count, 0);
    expect(loads(aware)).toBeLessThan(loads(blind));
    expect(aware.ttft_mean_ms).toBeLessThan(blind.ttft_mean_ms);
  });
});

describe('LoRA in decision traces', () => {
  it('route records carry the adapter and where it was resident; the summary counts cold routings', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'blis-lora-trace-')), 'trace.jsonl');
    const recorder = new TraceRecorder({ level: 'decisions', counterfactualK: 0, sink: new JsonlFileSink(path), policies: { routing: 'round-robin' } });
    const r = simulate({ ...base, numInstances: 3, lora: { adapters: registry, adapterCapacity: 1 } }, { observer: recorder });
    recorder.finish(r.vllm_estimated_duration_s * 1e6);
    const routes = [...readTraceFile(path)].filter((x): x is RoutingRecord => x.t === 'route');
    expect(routes).toHaveLength(160);
    expect(routes.every((x) => x.adapter?.startsWith('ad-') && x.warm?.length === 3)).toBe(true);
    // The first request finds its adapter nowhere.
    expect(routes[0].warm).toEqual([0, 0, 0]);
    const line = summarizeTrace(recorder.analyzer).split('\n').find((l) => l.startsWith('- LoRA adapters:'));
    expect(line).toMatch(/^- LoRA adapters: 160 routings of adapter requests; \d+ \(\d+\.\d%\) went to an instance without the adapter while another held it, [1-9]\d* found it resident nowhere\.$/);
  });
});
