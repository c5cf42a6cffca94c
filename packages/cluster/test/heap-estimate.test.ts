import { describe, expect, it } from 'vitest';
import { RunLimitError, prepareSimulation } from '../src/index.js';
import { MEMORY_COSTS, estimateMemory, heapMegabytesFor, memoryLimitIssues } from '../src/internal.js';

// docs/limits.md, "The memory estimate": the part of a run on V8's heap is compared with Node's
// heap limit as well as the whole with the machine. A run of 6 million requests with records fit
// a machine of 23 GiB, was simulated for minutes and then aborted past the 4 GiB heap.

const MiB = 2 ** 20;

describe('the heap part of the estimate', () => {
  it('counts instances, requests, the result\'s time series and the process, not the typed arrays', () => {
    const e = estimateMemory({ instances: [{ count: 2, kvBlocks: 1000 }], requests: 10, includeRequests: true, timeseriesSamples: 100, cpuTier: { kind: 'cpu', blocks: 1000 } });
    // Time series: 2 instances × 6 signals × 128 float64s in columns, three times that in the result's arrays.
    const columns = 2 * 6 * 128 * 8;
    expect(e.heapBytes).toBe(MEMORY_COSTS.baselineHeapBytes + 2 * 64 * 1024 + 10 * 2048 + 3 * columns);
    expect(e.totalBytes).toBe(MEMORY_COSTS.baselineBytes + e.kvCacheBytes + e.cpuTierBytes + 2 * 64 * 1024 + 10 * 2048 + 4 * columns);
    expect(e.heapSummary).toBe('instances 128.0 KiB, 10 requests with their records 20.0 KiB, time series 36.0 KiB, process 32.0 MiB');
  });

  it('refuses 6 million requests with records in a 4 GiB heap, on a machine that holds them', () => {
    const e = estimateMemory({ instances: [{ count: 1, kvBlocks: 1000 }], requests: 6_000_000, includeRequests: true, timeseriesSamples: undefined });
    const heap = { bytes: 4144 * MiB, what: "Node's heap limit" };
    expect(memoryLimitIssues(e, { bytes: 23 * 1024 * MiB, what: 'a machine' })).toEqual([]);
    expect(memoryLimitIssues(e, { bytes: 23 * 1024 * MiB, what: 'a machine', heap })).toEqual([
      {
        expected: "a run whose JavaScript objects fit in V8's heap of 4.0 GiB (Node's heap limit)",
        found: 'an estimated 11.5 GiB on the heap (NODE_OPTIONS=--max-old-space-size=11776 would hold it): instances 64.0 KiB, 6000000 requests with their records 11.4 GiB, process 32.0 MiB',
      },
    ]);
    // Without records the same run fits.
    const lean = estimateMemory({ instances: [{ count: 1, kvBlocks: 1000 }], requests: 6_000_000, includeRequests: false, timeseriesSamples: undefined });
    expect(memoryLimitIssues(lean, { bytes: 23 * 1024 * MiB, what: 'a machine', heap })).toEqual([]);
  });

  it('suggests a heap of whole 512 MiB steps that holds the estimate', () => {
    expect(heapMegabytesFor(1)).toBe(512);
    expect(heapMegabytesFor(512 * MiB)).toBe(512);
    expect(heapMegabytesFor(512 * MiB + 1)).toBe(1024);
  });

  it('is checked by prepareSimulation before any instance exists', () => {
    const config = { numInstances: 1, totalKVBlocks: 100, includeRequests: true, workload: { kind: 'synthetic' as const, numRequests: 100_000 } };
    let caught: unknown;
    try {
      prepareSimulation(config, { memoryLimit: { bytes: 2 ** 40, what: 'a test', heap: { bytes: 64 * MiB, what: 'a small heap' } } });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(RunLimitError);
    expect((caught as RunLimitError).message).toMatch(/^run: expected a run whose JavaScript objects fit in V8's heap of 64\.0 MiB \(a small heap\), found an estimated 227\.4 MiB on the heap/);
  });
});
