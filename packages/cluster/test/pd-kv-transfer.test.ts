import { kvBytesPerTokenPerRank, modelConfigRaw } from '@blis/latency/internal';
import { ArrayRequestSource } from '@blis/engine';
import { parseModelConfig } from '@blis/latency';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, simulate } from '../src/index.js';
import { KvTransferLink, transferDurationUs } from '../src/pd/kv-transfer.js';
import { LLAMA, Recorder, onePlusOne, pd2Latency, req } from './pd-example-helpers.js';

// The reference's PD-1 worked example (docs: /work/shared/reference/blis-semantics.md §2.10):
// KV transfer durations, alone and with contention, by hand and end to end. Times are µs.

describe('PD-1: KV transfer duration', () => {
  it('160 tokens, B = 16, 512 B/token, 10 GB/s, base 0: 9 µs alone, 17 µs as the second with contention', () => {
    // 10 blocks × 16 tokens × 512 B = 81,920 B; 10 GB/s = 10,000 B/µs.
    expect(transferDurationUs(81_920, 10_000, 0)).toBe(9); // ceil(8.192)
    expect(transferDurationUs(81_920, 5_000, 0)).toBe(17); // ceil(16.384)
    const link = new KvTransferLink({ bytesPerBlock: 16 * 512, bandwidthGBps: 10, baseLatencyMs: 0, contention: true });
    expect(link.start(10)).toBe(9); // 1 active: the whole 10,000 B/µs
    expect(link.start(10)).toBe(17); // 2 active: 5,000 B/µs each, fixed for the transfer's life
    expect(link.peak).toBe(2);
    expect(link.meanQueueDepth).toBe(1.5); // (1 + 2) / 2 starts
    link.finish();
    link.finish();
    expect(link.active).toBe(0);
    expect(link.start(10)).toBe(9); // alone again
    expect(link.meanQueueDepth).toBeCloseTo(4 / 3, 12); // (1 + 2 + 1) / 3
  });

  it('without contention every transfer gets the whole bandwidth and the link keeps no counts', () => {
    const link = new KvTransferLink({ bytesPerBlock: 16 * 512, bandwidthGBps: 10, baseLatencyMs: 0, contention: false });
    expect([link.start(10), link.start(10), link.start(10)]).toEqual([9, 9, 9]);
    expect(link.active).toBe(0);
    expect(link.peak).toBe(0);
    expect(link.meanQueueDepth).toBe(0);
  });

  it('a transfer takes at least 1 µs', () => {
    expect(transferDurationUs(0, 25_000, 0)).toBe(1);
    expect(transferDurationUs(1, 25_000, 0)).toBe(1); // ceil(0.00004)
    expect(new KvTransferLink({ bytesPerBlock: 0, bandwidthGBps: 25, baseLatencyMs: 0, contention: false }).start(63)).toBe(1);
  });

  it('llama-3.1-8b holds 131,072 KV bytes per token at TP 1 (32 layers × 2 × 8 KV heads × 128 × 2 B), 65,536 per rank at TP 2', () => {
    const arch = parseModelConfig(modelConfigRaw(LLAMA));
    expect(kvBytesPerTokenPerRank(arch.kvShape, 1)).toBe(131_072);
    expect(kvBytesPerTokenPerRank(arch.kvShape, 2)).toBe(65_536);
  });

  it('llama-3.1-8b, 1000 tokens, BLIS defaults: 5335 µs; 10,620 µs as the second concurrent with contention; 2693 µs at prefill TP 2', () => {
    // 63 blocks × 16 × 131,072 B = 132,120,576 B; 25 GB/s = 25,000 B/µs; base 0.05 ms = 50 µs.
    const blocks = Math.ceil(1000 / 16);
    expect(blocks).toBe(63);
    const tp1 = { bytesPerBlock: 16 * 131_072, bandwidthGBps: 25, baseLatencyMs: 0.05 };
    expect(new KvTransferLink({ ...tp1, contention: false }).start(blocks)).toBe(5335); // ceil(50 + 5284.823)
    const contended = new KvTransferLink({ ...tp1, contention: true });
    expect([contended.start(blocks), contended.start(blocks)]).toEqual([5335, 10_620]); // ceil(50 + 10,569.646)
    expect(new KvTransferLink({ ...tp1, bytesPerBlock: 16 * 65_536, contention: false }).start(blocks)).toBe(2693); // ceil(50 + 2642.41)
  });

  it('end to end: one 1000-token request moves in 5335 µs; in 2693 µs at TP 2', () => {
    const one = () => new ArrayRequestSource([req(0, 0, 1000, 4)]);
    const r = simulate(onePlusOne({ decider: 'always' }), { latency: pd2Latency(), source: one() });
    expect(r.pd!.kv_transfer_duration.mean_ms).toBe(5.335);
    expect(r.pd!.transfers_initiated).toBe(1);
    // The global TP sizes the transfer when the prefill pool has no TP of its own.
    const tp2 = simulate(onePlusOne({ decider: 'always' }, { tp: 2 }), { latency: pd2Latency(), source: one() });
    expect(tp2.pd!.kv_transfer_duration.mean_ms).toBe(2.693);
  });

  it('end to end with the catalogue model: pd.prefill.tp 2 halves the bytes (2693 µs); pd.decode.tp 2 does not (transfer bytes use prefill TP)', () => {
    const base = { numInstances: 2, model: LLAMA, totalKVBlocks: 1000, checkInvariants: true } as const;
    const run = (pd: SimulationConfigInput['pd']) =>
      simulate({ ...base, pd: { prefillInstances: 1, decodeInstances: 1, decider: 'always', ...pd } }, { source: new ArrayRequestSource([req(0, 0, 1000, 4)]) });
    expect(run({}).pd!.kv_transfer_duration.mean_ms).toBe(5.335);
    expect(run({ prefill: { tp: 2 } }).pd!.kv_transfer_duration.mean_ms).toBe(2.693);
    expect(run({ decode: { tp: 2 } }).pd!.kv_transfer_duration.mean_ms).toBe(5.335);
    // 10 GB/s and 1 ms base (the plan's figures): ceil(1000 + 132,120,576 / 10,000) = 14,213 µs.
    expect(run({ transferBandwidthGBps: 10, transferBaseLatencyMs: 1 }).pd!.kv_transfer_duration.mean_ms).toBe(14.213);
  });

  it('end to end with contention: two prompts done in one prefill step move in 5335 and 10,620 µs', () => {
    // One prefill step admits both 1000-token prompts (budget 2048) and ends at 30,000: both
    // transfers start then, the second sharing the bandwidth with the first.
    const rec = new Recorder();
    const r = simulate(onePlusOne({ decider: 'always', transferContention: true }), {
      latency: pd2Latency(),
      source: new ArrayRequestSource([req(0, 0, 1000, 4), req(1, 0, 1000, 4)]),
      observer: rec,
    });
    expect(rec.transfers.map((t) => [t.requestId, t.startUs, t.durationUs])).toEqual([
      ['0', 30_000, 5335],
      ['1', 30_000, 10_620],
    ]);
    expect(rec.transferSeenAt).toEqual([35_335, 40_620]);
    expect(r.pd!.peak_concurrent_transfers).toBe(2);
    expect(r.pd!.mean_transfer_queue_depth).toBe(1.5);
    expect(r.pd!.kv_transfer_duration.mean_ms).toBeCloseTo((5.335 + 10.62) / 2, 12);
    // Without contention both take 5335 and the contention figures are absent.
    const free = simulate(onePlusOne({ decider: 'always' }), { latency: pd2Latency(), source: new ArrayRequestSource([req(0, 0, 1000, 4), req(1, 0, 1000, 4)]) });
    expect(free.pd!.kv_transfer_duration.mean_ms).toBe(5.335);
    expect(free.pd!.peak_concurrent_transfers).toBeUndefined();
    expect(free.pd!.mean_transfer_queue_depth).toBeUndefined();
  });
});
