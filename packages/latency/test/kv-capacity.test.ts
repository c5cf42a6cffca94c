import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deriveKVCapacity, deriveTotalKVBlocks, hardwareSpec, resolveLatency } from '../src/index.js';
import { capacityWeightBytes, describeKVCapacity } from '../src/internal.js';

interface Tp1Row {
  model: string;
  gpu: string;
  blocks?: number;
  weightsGiB?: string;
  activationGiB?: string;
  minGpus?: number;
}
// BLIS HEAD's own figures for the whole catalogue at TP 1 (fixtures/blis-head-kv-capacity/PROVENANCE.md).
const tp1: Tp1Row[] = JSON.parse(readFileSync(new URL('./fixtures/blis-head-kv-capacity/tp1.json', import.meta.url), 'utf8'));

function architecture(model: string, tp: number) {
  return resolveLatency({ model, hardware: 'H100', latencyModel: 'roofline', tp }).modelConfig!;
}

describe('derived KV capacity equals BLIS HEAD at TP 1', () => {
  it('covers every model config and GPU of the catalogue', () => {
    expect(tp1).toHaveLength(13 * 4);
  });
  it.each(tp1)('$model on $gpu', (row) => {
    const input = { modelConfig: architecture(row.model, 1), hardware: hardwareSpec(row.gpu), tp: 1 };
    if (row.blocks !== undefined) {
      expect(deriveTotalKVBlocks(input)).toBe(row.blocks);
      return;
    }
    expect(() => deriveKVCapacity(input)).toThrow(`weights ${row.weightsGiB} GiB + activations ${row.activationGiB} GiB`);
    expect(() => deriveKVCapacity(input)).toThrow(`at least ${row.minGpus} GPUs per instance would`);
  });
});

// By hand, H100 (80 GiB) at 0.9, 16-token blocks. llama-3.1-8b: 8,030,261,248 parameters
// (2·128256·4096 embeddings and head + 32·(4096·6144 + 4096² attention + 2·4096 norms)
// + 32·3·4096·14336 MLP + 4096 final norm), 16,060,522,496 bytes = 14.9575 GiB; KV
// 2·32·8·128·2 = 131072 B per token over all ranks. Each rank holds every block (its share of the
// heads), so blocks = (80·0.9·TP − weights − 5.5 − 0.6·TP GiB) / TP / (131072/TP·16 B).
describe('derived KV capacity at TP > 1 is vLLM per-GPU count, with the same reserves', () => {
  it.each([
    // model, TP, allocatable bytes, block bytes per rank, blocks (BLIS HEAD's figure, which counts the split twice)
    ['llama-3.1-8b-instruct', 2, 131_364_229_939, 1_048_576, 62_639], // BLIS 125,278
    ['llama-3.1-8b-instruct', 4, 284_694_562_406, 524_288, 135_752], // BLIS 543,011
    // qwen3-14b: 29,536,593,920 weight bytes; 40·2·128·8·2 = 163840 B per token.
    ['qwen3-14b', 2, 117_888_158_515, 1_310_720, 44_970], // BLIS 89,941
    ['qwen3-14b', 4, 271_218_490_982, 655_360, 103_461], // BLIS 413,846
    // llama-3.1-70b: 141,107,412,992 weight bytes, only fits from TP 2.
    ['llama-3.1-70b-instruct', 4, 159_647_671_910, 1_310_720, 30_450], // BLIS 121,801
    // mixtral: MoE (8 experts), 8 GiB activations; 93,405,585,408 weight bytes.
    ['mixtral-8x7b-v0.1', 2, 51_334_812_467, 1_048_576, 24_478], // BLIS 48,956
    ['mixtral-8x7b-v0.1', 4, 204_665_144_934, 524_288, 97_591], // BLIS 390,367
    // deepseek-v2-lite: MLA, the 27·(512+64)·2 = 31104 B latent is whole on every rank.
    ['deepseek-v2-lite', 2, 113_164_665_651, 497_664, 113_695], // BLIS 227,391
  ] as const)('%s at TP %i', (model, tp, allocatable, blockBytes, blocks) => {
    const d = deriveKVCapacity({ modelConfig: architecture(model, tp), hardware: hardwareSpec('H100'), tp });
    expect(d.allocatableBytes).toBe(allocatable);
    expect(d.blockBytesPerRank).toBe(blockBytes);
    expect(d.blocks).toBe(blocks);
  });
  it('weighs llama-3.1-8b as the hand count does', () => {
    const m = architecture('llama-3.1-8b-instruct', 1);
    expect(capacityWeightBytes(m.step, m.kvShape, m.tiedEmbeddings)).toBe(16_060_522_496);
  });
  it('gives a rank a whole KV head when there are fewer heads than ranks, as vLLM does', () => {
    // qwen2.5-7b: 4 KV heads, 28 layers, head 128: 28·2·128·1·2 = 14336 B per token per rank at TP 8.
    const d = deriveKVCapacity({ modelConfig: architecture('qwen2.5-7b-instruct', 1), hardware: hardwareSpec('H100'), tp: 8 });
    expect(d.bytesPerTokenPerRank).toBe(14_336);
    expect(d.blockBytesPerRank).toBe(14_336 * 16);
  });
  it('says how the count came about', () => {
    const d = deriveKVCapacity({ modelConfig: architecture('llama-3.1-8b-instruct', 1), hardware: hardwareSpec('H100'), tp: 1 });
    expect(describeKVCapacity(d)).toBe('80 GiB × 0.9 × TP 1 − 14.96 weights − 5.5 activations − 0.15 non-torch = 51.39 GiB / 2097152 B per block');
  });
  it('refuses a config whose MLP it cannot weigh, as BLIS does', () => {
    const m = architecture('llama-3.1-8b-instruct', 1);
    const gelu = { ...m, step: { ...m.step, hiddenAct: 'gelu_pytorch_tanh' } };
    expect(() => deriveKVCapacity({ modelConfig: gelu, hardware: hardwareSpec('H100'), tp: 1 })).toThrow(/expected a SwiGLU-family hidden_act .*found "gelu_pytorch_tanh"; or pass --total-kv-blocks/);
  });
});
