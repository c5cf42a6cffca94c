import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveKVCapacity, hardwareSpec, resolveLatency } from '../src/index.js';
import { describeKVCapacity, resolveKVBlocks } from '../src/internal.js';

// The LoRA adapter slots' HBM comes out of a derived KV budget, once, beside the weights.

const llama = resolveLatency({ model: 'meta-llama/llama-3.1-8b-instruct', hardware: 'H100', tp: 1 });
const input = { modelConfig: llama.modelConfig!, hardware: hardwareSpec('H100'), tp: 1 };

describe('KV capacity with LoRA adapter slots', () => {
  it('equals BLIS HEAD: llama-3.1-8b on H100, 8 slots of rank 32 at 2e6 bytes per rank', () => {
    // BLIS f90a1e3a `run --lora-adapter-capacity 8` (max rank 32, defaults.yaml footprint) logs
    // "Starting simulation with 26068 KV blocks"; without adapters 26312.
    expect(deriveKVCapacity(input).blocks).toBe(26_312);
    const d = deriveKVCapacity({ ...input, adapterReservedBytes: 8 * 2e6 * 32 });
    expect(d.blocks).toBe(26_068);
    expect(describeKVCapacity(d)).toContain('− 0.48 LoRA adapter slots');
    expect(describeKVCapacity(deriveKVCapacity(input))).not.toContain('LoRA');
  });

  it('never touches an explicit block count', () => {
    expect(resolveKVBlocks({ totalKVBlocks: 7463, modelConfig: input.modelConfig, hardware: input.hardware, adapterReservedBytes: 1e9 }).blocks).toBe(7463);
  });

  it('conserves memory: the blocks given up hold the reserved bytes, to within a block', () => {
    const base = deriveKVCapacity(input);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000_000_000 }), (bytes) => {
        const d = deriveKVCapacity({ ...input, adapterReservedBytes: bytes });
        const lost = base.blocks - d.blocks;
        const exact = bytes / d.blockBytesPerRank;
        expect(lost).toBeGreaterThanOrEqual(Math.floor(exact) - 1);
        expect(lost).toBeLessThanOrEqual(Math.ceil(exact) + 1);
      }),
    );
  });

  it('names the slots when the reserves no longer fit', () => {
    expect(() => deriveKVCapacity({ ...input, adapterReservedBytes: 80 * 2 ** 30 })).toThrow(/LoRA adapter slots 80\.00 GiB/);
  });
});
