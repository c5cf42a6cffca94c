import { describe, expect, it } from 'vitest';
import { LatencyConfigError, parseModelConfig } from '../src/index.js';
import { type KVShape, kvBytesPerTokenPerRank, modelConfigRaw, parseKVShape } from '../src/internal.js';

// BLIS's KVBytesPerToken (reference §2.5): per TP rank for MHA/GQA, whole latent per rank for MLA.

const catalogue = (model: string) => parseModelConfig(modelConfigRaw(model), model).kvShape;
const gqa: KVShape = { layers: 32, heads: 32, hiddenSize: 4096, kvHeads: 8, headDim: 0, bytesPerParam: 2, kvLoraRank: 0, qkRopeHeadDim: 0 };

describe('kvBytesPerTokenPerRank', () => {
  it('KV-2: Llama-3.1-8B holds 131,072 bytes per token at TP 1 and half that per rank at TP 2', () => {
    const llama = catalogue('meta-llama/llama-3.1-8b-instruct');
    expect(llama).toMatchObject({ layers: 32, heads: 32, hiddenSize: 4096, kvHeads: 8, headDim: 0, bytesPerParam: 2 });
    expect(kvBytesPerTokenPerRank(llama, 1)).toBe(131_072);
    expect(kvBytesPerTokenPerRank(llama, 2)).toBe(65_536);
    expect(kvBytesPerTokenPerRank(llama, 8)).toBe(16_384);
  });

  it('MLA (DeepSeek-V2-Lite): layers × (kv_lora_rank + qk_rope_head_dim) × bytes, the same on every rank', () => {
    const ds = catalogue('deepseek-ai/deepseek-v2-lite');
    expect(ds).toMatchObject({ layers: 27, kvLoraRank: 512, qkRopeHeadDim: 64, bytesPerParam: 2 });
    expect(kvBytesPerTokenPerRank(ds, 1)).toBe(27 * 576 * 2);
    expect(kvBytesPerTokenPerRank(ds, 4)).toBe(27 * 576 * 2);
  });

  it('an explicit head_dim wins over hidden / heads, and the precision is the compute dtype, not the weights', () => {
    const shape = parseKVShape({ num_hidden_layers: 2, num_attention_heads: 64, hidden_size: 6144, num_key_value_heads: 4, head_dim: 192, dtype: 'bfloat16', quantization_config: { quant_method: 'fp8' } });
    expect(kvBytesPerTokenPerRank(shape, 1)).toBe(2 * 2 * 192 * 4 * 2);
  });

  it('reads the KV-head fallbacks (num_kv_heads, multi_query_group_num) and a multimodal text_config', () => {
    expect(parseKVShape({ num_kv_heads: 4 }).kvHeads).toBe(4);
    expect(parseKVShape({ multi_query_group_num: 2 }).kvHeads).toBe(2);
    expect(parseKVShape({ num_key_value_heads: 1, text_config: { num_key_value_heads: 8, torch_dtype: 'float32' } })).toMatchObject({ kvHeads: 8, bytesPerParam: 4 });
  });

  it('no KV-head field means as many KV heads as attention heads (MHA)', () => {
    expect(kvBytesPerTokenPerRank({ ...gqa, kvHeads: 0 }, 1)).toBe(32 * 2 * 128 * 32 * 2);
  });

  it('nKV ≥ TP must divide evenly; nKV < TP still divides by TP (BLIS\'s documented underestimate)', () => {
    expect(() => kvBytesPerTokenPerRank({ ...gqa, kvHeads: 6 }, 4)).toThrow(/6 KV heads to divide evenly by TP 4/);
    expect(kvBytesPerTokenPerRank({ ...gqa, kvHeads: 2 }, 4)).toBe((32 * 2 * 128 * 2 * 2) / 4);
    expect(kvBytesPerTokenPerRank({ ...gqa, kvHeads: 8 }, 16)).toBe(131_072 / 16);
  });

  it.each<[string, Partial<KVShape>, number, RegExp]>([
    ['TP 0', {}, 0, /tensor parallelism > 0/],
    ['no layers', { layers: 0 }, 1, /num_hidden_layers > 0/],
    ['no heads', { heads: 0 }, 1, /num_attention_heads > 0/],
    ['no hidden size', { hiddenSize: 0 }, 1, /hidden_size > 0/],
    ['an unknown dtype', { bytesPerParam: 0 }, 1, /torch_dtype/],
    ['hidden not divisible by heads without head_dim', { hiddenSize: 4100 }, 1, /divisible by num_attention_heads/],
    ['an MLA latent of width 0', { kvLoraRank: 1, qkRopeHeadDim: -1 }, 1, /kv_lora_rank \+ qk_rope_head_dim > 0/],
  ])('refuses %s', (_, patch, tp, why) => {
    expect(() => kvBytesPerTokenPerRank({ ...gqa, ...patch }, tp)).toThrow(LatencyConfigError);
    expect(() => kvBytesPerTokenPerRank({ ...gqa, ...patch }, tp)).toThrow(why);
  });
});
