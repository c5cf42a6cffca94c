import type { CpuTierConfig } from '@blis/kvcache';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeRequestSpec } from '../src/index.js';
import { blackbox, drive, instanceConfig, promptHashes } from './drive.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// The legacy CPU tier driven by the engine: reloads on admission, their latency charged to the
// step, compute saved for reloaded blocks (vLLM) or not (BLIS, --kv-reload-recompute).

const B = 16;
const cpu = (over: Partial<CpuTierConfig> = {}): CpuTierConfig => ({ kind: 'cpu', cpuBlocks: 8, transferBandwidth: 100, transferBaseLatencyUs: 0, ...over });

/**
 * A (64-token prompt, 4 blocks) runs alone; B (unrelated, 4 blocks) then takes the GPU blocks of
 * A's last three; C repeats A's prompt. GPU 5 blocks; step time 1000 + 10 µs per prefill token.
 */
function abc() {
  const spec = (index: number, at: number, group: number) =>
    makeRequestSpec({ index, arrivalUs: at, inputTokens: 64, outputTokens: 1, blockHashes: promptHashes(64, B, group === 0 ? 4 : 0, 0, index) });
  return [spec(0, 0, 0), spec(1, 10_000, 1), spec(2, 20_000, 0)];
}
const latency = () => blackbox([0, 0, 0], [1000, 10, 0]);

describe('CPU tier in the engine', () => {
  it('without a CPU tier, C finds only A\'s first block on the GPU: TTFT 1000 + 48 × 10 = 1480', () => {
    const r = drive(instanceConfig(latency(), { totalKVBlocks: 5 }), abc());
    expect(r.outcomes.get(2)!.cacheHitBlocks).toBe(1);
    expect(r.outcomes.get(2)!.ttft).toBe(1480);
  });

  it('with a CPU tier, C reloads A\'s last three blocks: no prefill compute, 3 × ceil(16/100) µs of transfer: TTFT 1003', () => {
    const r = drive(instanceConfig(latency(), { totalKVBlocks: 5, kvTiers: cpu() }), abc());
    const c = r.outcomes.get(2)!;
    expect(c.cacheHitBlocks).toBe(4);
    expect(c.ttft).toBe(1003);
    const s = r.instance.kvTiers!.stats();
    expect(s.reloaded).toBe(3);
    expect(s.mirrored).toBe(8); // A's four blocks, then B's four
    expect(s.transferLatencyUs).toBe(3);
  });

  it('BLIS\'s accounting (recomputeReloaded) still charges the 48 reloaded tokens: TTFT 1000 + 480 + 3', () => {
    const r = drive(instanceConfig(latency(), { totalKVBlocks: 5, kvTiers: cpu({ recomputeReloaded: true }) }), abc());
    expect(r.outcomes.get(2)!.cacheHitBlocks).toBe(4);
    expect(r.outcomes.get(2)!.ttft).toBe(1483);
  });

  it('BLIS\'s accounting: a request as large as the GPU cache finishes after a reload that ends mid-chunk (was a livelock)', () => {
    // fast-check counterexample (seed 1565846878). GPU 8 blocks, chunks of 17 tokens, one
    // request at a time. Four requests push P's 3-block prefix from the GPU to the CPU; R (110
    // prompt tokens sharing that prefix, 5 output: 114 tokens, all 8 blocks) then reloads it.
    // Its prefill restarts at 0, so it claims the 2 cached blocks its first 17 tokens reach: 32
    // tokens held for 17 computed. Allocating the next chunks on top of the 32 made R need 129
    // tokens (9 blocks): it preempted itself at its last output tokens, forever.
    const spec = (index: number, arrivalUs: number, inputTokens: number, outputTokens: number, group: number, shared: number) =>
      makeRequestSpec({ index, arrivalUs, inputTokens, outputTokens, blockHashes: promptHashes(inputTokens, B, shared, group, index) });
    const specs = [spec(0, 0, 48, 0, 1, 3), spec(1, 0, 40, 0, 0, 0), spec(2, 1, 30, 0, 0, 0), spec(3, 1, 30, 0, 0, 0), spec(4, 1, 110, 5, 1, 3), spec(5, 4, 1, 0, 0, 0)];
    const config = instanceConfig(blackbox([10, 0.1, 2], [300, 2, 5]), {
      totalKVBlocks: 8,
      maxNumBatchedTokens: 17,
      maxNumSeqs: 1,
      kvTiers: cpu({ cpuBlocks: 7, recomputeReloaded: true }),
    });
    const r = drive(config, specs, 2000);
    expect(r.instance.metrics.completed).toBe(6);
    expect(r.instance.kvTiers!.stats().reloaded).toBe(3);
    const big = r.outcomes.get(4)!;
    expect(big.cacheHitBlocks).toBe(3);
    expect(big.preemptions).toBe(0);
  });

  it('a transfer base latency of 200 µs per block makes the reload cost 3 × (200 + 1): TTFT 1603', () => {
    const r = drive(instanceConfig(latency(), { totalKVBlocks: 5, kvTiers: cpu({ transferBaseLatencyUs: 200 }) }), abc());
    expect(r.outcomes.get(2)!.ttft).toBe(1603);
  });
});

describe('CPU tier in the engine (fast-check)', () => {
  const scenario = fc.record({
    kv: fc.integer({ min: 3, max: 40 }),
    cpuBlocks: fc.integer({ min: 1, max: 30 }),
    budget: fc.integer({ min: 16, max: 256 }),
    seqs: fc.integer({ min: 1, max: 6 }),
    recompute: fc.boolean(),
    reqs: fc.array(
      fc.record({ gap: fc.integer({ min: 0, max: 4000 }), input: fc.integer({ min: 1, max: 120 }), output: fc.integer({ min: 0, max: 20 }), group: fc.integer({ min: -1, max: 2 }), shared: fc.integer({ min: 0, max: 6 }) }),
      { minLength: 1, maxLength: 20 },
    ),
  });
  const specsOf = (reqs: { gap: number; input: number; output: number; group: number; shared: number }[]) => {
    let t = 0;
    return reqs.map((r, index) => {
      t += r.gap;
      return makeRequestSpec({ index, arrivalUs: t, inputTokens: r.input, outputTokens: r.output, blockHashes: promptHashes(r.input, B, r.group < 0 ? 0 : r.shared, Math.max(0, r.group), index) });
    });
  };

  it('keeps INV-4, the CPU LRU and work conservation after every step, and drains every request', () => {
    fc.assert(
      fc.property(scenario, (sc) => {
        const specs = specsOf(sc.reqs);
        const config = instanceConfig(blackbox([10, 0.1, 2], [300, 2, 5]), {
          totalKVBlocks: sc.kv,
          maxNumBatchedTokens: sc.budget,
          maxNumSeqs: sc.seqs,
          kvTiers: cpu({ cpuBlocks: sc.cpuBlocks, recomputeReloaded: sc.recompute }),
        });
        // checkInvariants (on in instanceConfig) runs the tiers' and the GPU's consistency checks each step.
        const r = drive(config, specs, 200_000);
        expect(r.instance.metrics.completed + r.instance.metrics.dropped).toBe(specs.length);
        const s = r.instance.kvTiers!.stats();
        expect(s.cpuEvictions).toBeLessThanOrEqual(s.mirrored);
        expect(s.transferLatencyUs).toBe(s.reloaded); // base 0, ceil(16/100) = 1 µs per block
      }),
      { numRuns: propertyRuns(150) },
    );
  });

  it('a CPU tier that never has to reload changes no request\'s timing', () => {
    fc.assert(
      fc.property(scenario, (sc) => {
        const specs = specsOf(sc.reqs);
        // A GPU cache that holds every prompt block ever computed never loses one to eviction.
        const config = instanceConfig(blackbox([10, 0.1, 2], [300, 2, 5]), { totalKVBlocks: 4000, maxNumBatchedTokens: sc.budget, maxNumSeqs: sc.seqs });
        const plain = drive(config, specs, 200_000);
        const tiered = drive({ ...config, kvTiers: cpu({ cpuBlocks: sc.cpuBlocks }) }, specs, 200_000);
        expect(tiered.instance.kvTiers!.stats().reloaded).toBe(0);
        expect(tiered.log).toEqual(plain.log);
        expect(tiered.steps).toEqual(plain.steps);
        expect([...tiered.outcomes.entries()]).toEqual([...plain.outcomes.entries()]);
      }),
      { numRuns: propertyRuns(100) },
    );
  });
});
