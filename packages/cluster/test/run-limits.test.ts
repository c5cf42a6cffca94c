import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RUN_LIMITS, RunLimitError, type SimulationConfigInput, SimulationConfigSchema, prepareSimulation } from '../src/index.js';
import { MEMORY_COSTS, configLimitIssues, estimateMemory, kvBlockIssues } from '../src/internal.js';
import { cpuTierBytes, kvCacheBytes } from '../src/limits/memory-estimate.js';

// docs/limits.md: every limit refuses the first value past it (and accepts the limit itself),
// before anything is allocated; the memory estimate is checked by hand on a small config.

const MODEL = 'meta-llama/llama-3.1-8b-instruct';
const parse = (c: SimulationConfigInput) => SimulationConfigSchema.parse(c);
const synthetic = (w: Record<string, unknown>): SimulationConfigInput => ({ workload: { kind: 'synthetic', numRequests: 5, ...w } as SimulationConfigInput['workload'] });

function refusal(f: () => unknown): RunLimitError {
  try {
    f();
  } catch (e) {
    if (e instanceof RunLimitError) return e;
    throw e;
  }
  throw new Error('no RunLimitError');
}

describe('configLimitIssues', () => {
  const cases: [string, (v: number) => SimulationConfigInput, number, string][] = [
    ['numInstances', (v) => ({ numInstances: v }), RUN_LIMITS.maxInstances, 'instances'],
    ['totalKVBlocks', (v) => ({ totalKVBlocks: v }), RUN_LIMITS.maxKVBlocksPerInstance, 'KV blocks per instance'],
    ['kvCpuBlocks', (v) => ({ kvCpuBlocks: v }), RUN_LIMITS.maxKVBlocksPerInstance, 'CPU KV blocks per instance'],
    ['maxNumSeqs', (v) => ({ maxNumSeqs: v }), RUN_LIMITS.maxNumSeqs, 'sequences per batch'],
    ['blockSizeTokens', (v) => ({ blockSizeTokens: v }), RUN_LIMITS.maxBlockSizeTokens, 'tokens per block'],
    ['timeseriesMaxSamples', (v) => ({ timeseriesMaxSamples: v }), RUN_LIMITS.maxTimeseriesSamples, 'samples per signal'],
    ['workload.promptTokensMax', (v) => synthetic({ promptTokensMax: v }), RUN_LIMITS.maxTokensPerRequest, 'tokens per request'],
    ['workload.outputTokens', (v) => synthetic({ outputTokens: v }), RUN_LIMITS.maxTokensPerRequest, 'tokens per request'],
    ['workload.prefixTokens', (v) => synthetic({ prefixTokens: v }), RUN_LIMITS.maxTokensPerRequest, 'tokens per request'],
    ['workload.numRequests', (v) => synthetic({ numRequests: v }), RUN_LIMITS.maxRequests, 'requests'],
    ['workload.maxRequests', (v) => ({ workload: { kind: 'trace', path: 't.jsonl', maxRequests: v } }), RUN_LIMITS.maxRequests, 'requests'],
  ];
  it.each(cases)('%s: the limit is accepted, one more is refused, naming the limit', (path, config, limit, unit) => {
    expect(configLimitIssues(parse(config(limit)))).toEqual([]);
    expect(configLimitIssues(parse(config(limit + 1)))).toEqual([{ path: path.split('.'), expected: `at most ${limit} ${unit}`, found: String(limit + 1) }]);
  });

  it('refuses a given block count whose total over the instances passes the limit', () => {
    expect(configLimitIssues(parse({ numInstances: 16, totalKVBlocks: 67_108_864 }))).toEqual([]);
    expect(configLimitIssues(parse({ numInstances: 17, totalKVBlocks: 67_108_864 }))).toEqual([
      { path: ['totalKVBlocks'], expected: 'at most 1073741824 KV blocks over all instances', found: '17 instances × 67108864 blocks = 1140850688' },
    ]);
  });
});

describe('kvBlockIssues', () => {
  const config = parse({ numInstances: 2, blockSizeTokens: 16 });
  it('says which block size fits when none does', () => {
    const d = { model: 'm', gpu: 'H100', tp: 1, gpuMemoryUtilization: 0.9, freeBytes: 1000, kvBytesPerToken: 100 };
    expect(kvBlockIssues(0, 'derived', config, d)).toEqual([
      {
        path: ['blockSizeTokens'],
        expected: "at most 10 tokens per block (H100 × TP 1 at 0.9 utilisation leaves 0.0 GiB per GPU beside the weights of m and vLLM's reserves, 100 bytes of KV per token per GPU)",
        found: '16 (0 KV blocks per instance)',
      },
    ]);
  });
  it('asks for a larger block when the derived count passes the per-instance limit', () => {
    const [i] = kvBlockIssues(RUN_LIMITS.maxKVBlocksPerInstance * 2, 'derived', parse({ blockSizeTokens: 1 }), undefined);
    expect(i.path).toEqual(['blockSizeTokens']);
    expect(i.expected).toContain('at least 2 tokens per block');
  });
  it('blames the instances when the default count times them passes the total', () => {
    expect(kvBlockIssues(1_000_000, 'default', parse({ numInstances: 2000 }), undefined)).toEqual([
      { path: ['numInstances'], expected: 'at most 1073741824 KV blocks over all instances', found: '2000 instances × 1000000 blocks (the default count without a model config) = 2000000000' },
    ]);
  });
  it('leaves a flag count to the config check', () => {
    expect(kvBlockIssues(0, 'flag', config, undefined)).toEqual([]);
  });
});

describe('prepareSimulation', () => {
  it('refuses 10^8 instances at once, before building any', () => {
    const started = performance.now();
    const e = refusal(() => prepareSimulation({ model: MODEL, numInstances: 100_000_000 }));
    expect(e.message).toBe('config numInstances: expected at most 10000 instances, found 100000000');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses a block size no GPU holds one block of, with the largest that fits', () => {
    const e = refusal(() => prepareSimulation({ model: MODEL, blockSizeTokens: 1e12 }));
    expect(e.issues).toHaveLength(1);
    expect(e.issues[0].path).toEqual(['blockSizeTokens']);
    expect(e.issues[0].expected).toMatch(/^at most 421007 tokens per block \(H100 × TP 1 at 0\.9 utilisation/);
  });

  const spec = (clients: number, numRequests = 5) => ({
    version: '2',
    aggregate_rate: 10,
    num_requests: numRequests,
    clients: Array.from({ length: clients }, (_, i) => ({
      id: `c${i}`,
      rate_fraction: 1,
      arrival: { process: 'poisson' },
      input_distribution: { type: 'exponential', params: { mean: 64 } },
      output_distribution: { type: 'exponential', params: { mean: 16 } },
    })),
  });
  it('refuses a spec of more clients than the limit, and requests past the limit', () => {
    expect(() => prepareSimulation({ model: MODEL, workload: { kind: 'spec', spec: spec(RUN_LIMITS.maxSpecClients) } })).not.toThrow();
    expect(refusal(() => prepareSimulation({ model: MODEL, workload: { kind: 'spec', spec: spec(RUN_LIMITS.maxSpecClients + 1) } })).message).toBe(
      'workload spec clients: expected at most 10000 clients, found 10001',
    );
    expect(refusal(() => prepareSimulation({ model: MODEL, workload: { kind: 'spec', spec: spec(1, 1e9) } })).message).toBe(
      'workload spec num_requests: expected at most 100000000 requests, found 1000000000',
    );
  });

  it('refuses a run whose memory estimate exceeds the limit given, with both figures', () => {
    const config: SimulationConfigInput = { model: MODEL, numInstances: 2, totalKVBlocks: 1000, workload: { kind: 'synthetic', numRequests: 100 } };
    const e = refusal(() => prepareSimulation(config, { memoryLimit: { bytes: 134_502_719, what: 'a test' } }));
    expect(e.issues[0].path).toEqual([]);
    expect(e.message).toBe(
      'run: expected a run that fits in 128.3 MiB (a test), found an estimated 128.3 MiB: KV cache 111.3 KiB (2 × 1000 blocks), instances 128.0 KiB, 100 requests 39.1 KiB, process 128.0 MiB',
    );
    expect(() => prepareSimulation(config, { memoryLimit: { bytes: 134_502_720, what: 'a test' } })).not.toThrow();
  });
});

describe('estimateMemory', () => {
  it('adds the KV arrays, instances, requests and the process, by hand', () => {
    // 1,000 blocks: 16 B records, a ring of 2,048 (int32 + float64), a hash index of at most
    // 2,048 int32 pairs.
    expect(kvCacheBytes(1000)).toBe(16 * 1000 + 12 * 2048 + 8 * 2048);
    const e = estimateMemory({ instances: [{ count: 2, kvBlocks: 1000 }], requests: 100, includeRequests: false, timeseriesSamples: undefined });
    expect(e.kvCacheBytes).toBe(113_920);
    expect(e.instanceBytes).toBe(131_072);
    expect(e.requestBytes).toBe(40_000);
    expect(e.totalBytes).toBe(134_217_728 + 113_920 + 131_072 + 40_000);
  });

  it('counts per-request records and time-series columns', () => {
    const e = estimateMemory({ instances: [{ count: 3, kvBlocks: 16 }], requests: 10, includeRequests: true, timeseriesSamples: 100 });
    expect(e.requestBytes).toBe(10 * MEMORY_COSTS.perRequestWithRecordBytes);
    // 3 instances × 6 signals × 128 float64s (the power of two a column grows to).
    expect(e.timeseriesBytes).toBe(3 * 6 * 128 * 8);
  });

  it('never shrinks when a run grows', () => {
    const input = fc.record({ count: fc.integer({ min: 1, max: 10_000 }), blocks: fc.integer({ min: 1, max: 1e7 }), requests: fc.integer({ min: 0, max: 1e8 }) });
    fc.assert(
      fc.property(input, input, (a, b) => {
        const lo = { count: Math.min(a.count, b.count), blocks: Math.min(a.blocks, b.blocks), requests: Math.min(a.requests, b.requests) };
        const hi = { count: Math.max(a.count, b.count), blocks: Math.max(a.blocks, b.blocks), requests: Math.max(a.requests, b.requests) };
        const est = (x: typeof lo) => estimateMemory({ instances: [{ count: x.count, kvBlocks: x.blocks }], requests: x.requests, includeRequests: false, timeseriesSamples: undefined }).totalBytes;
        return est(lo) <= est(hi);
      }),
    );
  });

  it('counts the CPU tier behind every instance, legacy mirror or offload staging', () => {
    // Per block: the mirror's LRU 8 + 4 + 4 + 4 + 8 + 4 bytes, the staging tier 8 + 4 × 4 + 4;
    // both with a KeyIndex of 2,048 slots of two float64s for 1,000 keys.
    expect(cpuTierBytes({ kind: 'cpu', blocks: 1000 })).toBe(32 * 1000 + 16 * 2048);
    expect(cpuTierBytes({ kind: 'offload', blocks: 1000 })).toBe(28 * 1000 + 16 * 2048);
    const e = estimateMemory({ instances: [{ count: 2, kvBlocks: 1000 }], requests: 0, includeRequests: false, timeseriesSamples: undefined, cpuTier: { kind: 'cpu', blocks: 1000 } });
    expect(e.cpuTierBytes).toBe(2 * 64_768);
    expect(e.totalBytes).toBe(134_217_728 + 113_920 + 2 * 64_768 + 131_072);
  });
});

describe('the memory estimate of a prepared run', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'blis-run-limits-'));
  const base: SimulationConfigInput = { model: MODEL, numInstances: 2, totalKVBlocks: 1000, workload: { kind: 'synthetic', numRequests: 100 } };
  const message = (config: SimulationConfigInput) => refusal(() => prepareSimulation(config, { memoryLimit: { bytes: 1, what: 'a test' } })).message;

  it('counts batch slots past the default 256 per instance, 60 bytes each', () => {
    // 2 × (64 KiB + 744 × 60 bytes) = 220,352 bytes.
    expect(message({ ...base, maxNumSeqs: 1000 })).toMatch(/, instances 215\.2 KiB \(1000 batch slots each\), /);
  });

  it('counts --kv-cpu-blocks per instance', () => {
    expect(message({ ...base, kvCpuBlocks: 1000 })).toBe(
      'run: expected a run that fits in 1 bytes (a test), found an estimated 128.4 MiB: KV cache 111.3 KiB (2 × 1000 blocks), CPU tier 126.5 KiB (2 × 1000 blocks), instances 128.0 KiB, 100 requests 39.1 KiB, process 128.0 MiB',
    );
  });

  it('counts the records of a trace replayed without a request cap: all of a small one, a large one by its size', () => {
    const small = join(tmp, 'small.jsonl');
    writeFileSync(small, '{"timestamp": 0, "input_length": 10, "output_length": 5}\n'.repeat(3));
    expect(message({ ...base, workload: { kind: 'trace', path: small } })).toMatch(/, 3 requests \(the records of \S+small\.jsonl, 171 bytes\) 1\.2 KiB,/);
    // 2,000 lines of 60 bytes (120,000 bytes): the first 64 KiB hold 1,092 whole lines of 60 bytes.
    const big = join(tmp, 'big.jsonl');
    const line = '{"timestamp": 0, "input_length": 10, "output_length": 5}'.replaceAll(' ', '');
    writeFileSync(big, `${line.padEnd(59)}\n`.repeat(2000));
    expect(message({ ...base, workload: { kind: 'trace', path: big } })).toMatch(/, 2000 requests \(estimated from the size of \S+big\.jsonl, 117\.2 KiB\) 781\.3 KiB,/);
    expect(message({ ...base, workload: { kind: 'trace', path: big, maxRequests: 10 } })).toMatch(/, 10 requests 3\.9 KiB,/);
  });

  it('counts the replicas autoscaling may add, up to maxReplicas or what the node pools place', () => {
    const scaled = { ...base, autoscaling: { intervalUs: 1_000_000, maxReplicas: 5 } };
    // 5 instances: 5 × 56,960 bytes of KV arrays (278.1 KiB), 5 × 64 KiB besides.
    expect(message(scaled)).toBe(
      'run: expected a run that fits in 1 bytes (a test), found an estimated 128.6 MiB: KV cache 278.1 KiB (2 × 1000 blocks + 3 × 1000 blocks autoscaled (maxReplicas 5)), instances 320.0 KiB, 100 requests 39.1 KiB, process 128.0 MiB',
    );
    const pools = { ...scaled, autoscaling: { intervalUs: 1_000_000 }, nodePools: [{ name: 'a', gpuType: 'H100', gpusPerNode: 8, gpuMemoryGib: 80, maxNodes: 1 }] };
    expect(message(pools)).toMatch(/\(2 × 1000 blocks \+ 6 × 1000 blocks autoscaled \(node pools: 1 nodes × 8 GPUs at TP 1\)\), instances 512\.0 KiB,/);
    // Without autoscaling, node pools only place the startup instances.
    expect(message({ ...pools, autoscaling: undefined })).toMatch(/KV cache 111\.3 KiB \(2 × 1000 blocks\), instances 128\.0 KiB/);
  });

  it('holds the fleet autoscaling may reach to the instance limit', () => {
    const e = refusal(() => prepareSimulation({ ...base, autoscaling: { intervalUs: 1_000_000, maxReplicas: 20_000 } }));
    expect(e.message).toBe('config autoscaling.maxReplicas: expected at most 10000 instances (autoscaling included), found 20000 (maxReplicas 20000)');
    const pools = refusal(() => prepareSimulation({ ...base, autoscaling: { intervalUs: 1_000_000 }, nodePools: [{ name: 'a', gpuType: 'H100', gpusPerNode: 8, gpuMemoryGib: 80, maxNodes: 2000 }] }));
    expect(pools.message).toBe('config nodePools: expected at most 10000 instances (autoscaling included), found 16000 (node pools: 2000 nodes × 8 GPUs at TP 1)');
    expect(() => prepareSimulation({ ...base, autoscaling: { intervalUs: 1_000_000, maxReplicas: 10_000 } })).not.toThrow();
  });
});
