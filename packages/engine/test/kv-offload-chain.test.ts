import { DEVICE_CLASSES, type OffloadChainConfig } from '@blis/kvcache';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeRequestSpec } from '../src/index.js';
import { blackbox, drive, instanceConfig, promptHashes } from './drive.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// The offload chain driven by the engine: deferred admissions are skipped while a fetch from a
// secondary tier is pending, and admitted once the promotion has landed on the CPU tier.

const B = 16;
const PER_BLOCK = 2_097_152; // Llama-3.1-8B, TP 1, B = 16

function chain(cpuBlocks: number): OffloadChainConfig {
  return {
    kind: 'offload',
    cpuBytesToUse: cpuBlocks * PER_BLOCK,
    perBlockBytes: PER_BLOCK,
    cpuBlocks,
    blockSize: B,
    blocksPerChunk: 1,
    tokensPerHash: B,
    evictionPolicy: 'lru',
    offloadPromptOnly: true,
    selfDescribingKvEvents: false,
    secondaryTiers: [
      { type: 'fs', rootDir: '/mnt/kv', nReadThreads: 16, nWriteThreads: 16, locality: '', enableKvEvents: false, directIo: true, deviceClass: 'nvme_gen4', device: { ...DEVICE_CLASSES.nvme_gen4 } },
    ],
  };
}

/** A runs; B (unrelated) evicts A's last three blocks from the GPU and all four from the 4-block CPU tier; C repeats A. */
function abc() {
  const spec = (index: number, at: number, group: number) =>
    makeRequestSpec({ index, arrivalUs: at, inputTokens: 64, outputTokens: 1, blockHashes: promptHashes(64, B, group === 0 ? 4 : 0, 0, index) });
  return [spec(0, 0, 0), spec(1, 10_000, 1), spec(2, 20_000, 0)];
}

describe('offload chain in the engine', () => {
  it('a cold fetch is admitted in the third round (KV-5): deferred at 20,000, promoted at 21,000 (read 978 µs), admitted at 22,000', () => {
    const r = drive(instanceConfig(blackbox([0, 0, 0], [1000, 10, 0]), { totalKVBlocks: 5, kvTiers: chain(4) }), abc());
    const c = r.outcomes.get(2)!;
    // Two empty poll steps of 1,000 µs (beta0), then a fully reloaded prompt: no prefill compute.
    expect(c.firstScheduledAt).toBe(22_000);
    expect(c.cacheHitBlocks).toBe(4);
    expect(c.ttft).toBe(3000);
    const s = r.instance.kvTiers!.stats();
    expect(s.deferrals).toBe(1);
    expect(s.promotionsFired).toBe(1);
    expect(s.reloaded).toBe(3);
    expect(r.steps.filter((st) => st.start >= 20_000 && st.start < 22_000).map((st) => [st.start, st.stepTime, st.prefillTokens])).toEqual([
      [20_000, 1000, 0],
      [21_000, 1000, 0],
    ]);
  });

  it('later requests are admitted past a deferred one (a skip, not head-of-line blocking)', () => {
    const specs = abc();
    specs.push(makeRequestSpec({ index: 3, arrivalUs: 20_000, inputTokens: 32, outputTokens: 1, blockHashes: promptHashes(32, B, 0, 0, 3) }));
    const r = drive(instanceConfig(blackbox([0, 0, 0], [1000, 10, 0]), { totalKVBlocks: 5, kvTiers: chain(4) }), specs);
    expect(r.outcomes.get(3)!.firstScheduledAt).toBe(20_000);
    expect(r.outcomes.get(2)!.firstScheduledAt).toBeGreaterThan(20_000);
  });

  it('keeps every invariant on random workloads and drains them (fast-check)', () => {
    const scenario = fc.record({
      kv: fc.integer({ min: 4, max: 40 }),
      cpuBlocks: fc.integer({ min: 1, max: 24 }),
      reqs: fc.array(fc.record({ gap: fc.integer({ min: 0, max: 5000 }), input: fc.integer({ min: 1, max: 100 }), output: fc.integer({ min: 0, max: 12 }), group: fc.integer({ min: -1, max: 2 }), shared: fc.integer({ min: 0, max: 6 }) }), {
        minLength: 1,
        maxLength: 16,
      }),
    });
    let deferring = 0;
    fc.assert(
      fc.property(scenario, (sc) => {
        let t = 0;
        const specs = sc.reqs.map((q, index) => {
          t += q.gap;
          return makeRequestSpec({ index, arrivalUs: t, inputTokens: q.input, outputTokens: q.output, blockHashes: promptHashes(q.input, B, q.group < 0 ? 0 : q.shared, Math.max(0, q.group), index) });
        });
        const r = drive(instanceConfig(blackbox([10, 0.1, 2], [300, 2, 5]), { totalKVBlocks: sc.kv, maxNumSeqs: 4, maxNumBatchedTokens: 128, kvTiers: chain(sc.cpuBlocks) }), specs, 200_000);
        expect(r.instance.metrics.completed + r.instance.metrics.dropped).toBe(specs.length);
        if (r.instance.kvTiers!.stats().deferrals > 0) deferring++;
      }),
      // Only about one workload in fourteen defers. With 120 runs the check below failed about
      // one run in eight (CI flake): 100 seeds gave 1 to 16 deferring runs, 13 of them 5 or
      // fewer. With 400 (a third of a second), 60 seeds gave 19 to 41.
      { numRuns: propertyRuns(400) },
    );
    // The generator really exercises deferral.
    expect(deferring).toBeGreaterThan(5);
  });
});
