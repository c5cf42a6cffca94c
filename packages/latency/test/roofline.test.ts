import { describe, expect, it } from 'vitest';
import { LatencyConfigError, RooflineLatencyModel, hardwareSpec, parseModelConfig, resolveLatency } from '../src/index.js';
import { arch, step } from './step-batch.js';

// BLIS HEAD's roofline, term by term, on catalogue models and H100 (989.5 TFLOP/s bf16,
// 1979 fp8, 3.35 TB/s, MFU 0.45 prefill / 0.3 decode). Expected values were worked out by hand
// from the formulas below; each µs figure is trunc(max(compute, memory) · 1e6).

const H100 = hardwareSpec('H100');
const LLAMA = arch('meta-llama/llama-3.1-8b-instruct');
const MIXTRAL = arch('mixtral-8x7b-v0.1');


describe('BLIS HEAD roofline, llama-3.1-8b on H100', () => {
  // L = 32, d = 4096, 32 heads (dHead 128), 8 KV heads (dKV 1024), I = 14336, bf16.
  const m = new RooflineLatencyModel(LLAMA, H100, 1);

  it('first 2,048-token chunk of the 4,808-token request 0: 49,409 µs (compute-bound)', () => {
    // seq 0, n 2048, effective context 0 + 2047/2 = 1023.5.
    // projections (2·2048·(4096² + 2·4096·1024) + 2·2048·4096²)·32 = 5,497,558,138,880
    // attention 4·32·2048·1023.5·128·32                              = 1,098,974,756,864
    // softmax/RoPE (5·32·2048·1023.5 + 2·2048·4096)·32               =    11,269,046,272
    // MLP, 2 matrices: 2·2048·(2·4096·14336)·32                      = 15,393,162,788,864
    // compute = 21,999,...e12 FLOPs / (989.5e12 · 0.45) = 0.0494098 s
    // memory: weights (4096·(4096 + 2048) + 4096² + 2·4096·14336)·32·2 B = 10,200,547,328 B,
    //   KV write 2·32·8·128·2·2048 = 268,435,456, activations 32·4096·2·2048 = 536,870,912
    //   → 11,005,853,696 B / 3.35e12 = 0.0032853 s
    expect(m.stepTime(step([[0, 2048, 4808]], []))).toBe(49409);
  });

  it('a lone decode at context 4,808: 3,233 µs (memory-bound)', () => {
    // bytes: weights 10,200,547,328 + KV written 131,072 + KV read 131,072·4808 = 630,194,176
    //   + activations 262,144 = 10,831,134,720 B / 3.35e12 = 3,233.17 µs
    // compute: (2,684,354,560 proj + 2,520,776,704 attn + 24,879,104 vector + 7,516,192,768 MLP)
    //   / (989.5e12 · 0.3) = 42.9 µs
    expect(m.stepTime(step([], [4808]))).toBe(3233);
  });

  it('a mixed step sums compute over requests, each at its phase MFU, and takes one max: 54,500 µs', () => {
    // prefill chunk 2048 at context 2048 (effective 3071.5) at MFU 0.45, plus decodes at
    // contexts 100, 200, 300 at MFU 0.3: 0.0545008 s of compute against 0.0033893 s of memory
    // (weights once, 10,200,547,328 B; dynamic bytes 1,153,564,672 B).
    expect(m.stepTime(step([[2048, 2048, 4808]], [100, 200, 300]))).toBe(54500);
  });

  it('tensor parallelism divides compute, dynamic bytes and weights: TP 2 halves the chunk to 24,704 µs', () => {
    expect(new RooflineLatencyModel(LLAMA, H100, 2).stepTime(step([[0, 2048, 4808]], []))).toBe(24704);
  });

  it('an empty step still takes one tick; alphas default to zero', () => {
    expect(m.stepTime(step([], []))).toBe(1);
    expect(m.queueingTime(4808)).toBe(0);
    expect(m.outputTokenTime()).toBe(0);
    expect(m.postDecodeFixedOverhead()).toBe(0);
    const withAlpha = new RooflineLatencyModel(LLAMA, H100, 1, [100.7, 0.5, 3.9]);
    expect(withAlpha.queueingTime(10)).toBe(105); // trunc(100.7 + 0.5·10)
    expect(withAlpha.outputTokenTime()).toBe(3);
  });
});

describe('BLIS HEAD roofline, MoE (mixtral-8x7b: 8 experts, 2 per token)', () => {
  const m = new RooflineLatencyModel(MIXTRAL, H100, 1);

  it('loads the expected distinct experts: 2 for one token, 8·(1 − (6/8)^4) = 5.46875 for four', () => {
    // One decode at context 1000: weights = attention (4096·6144 + 4096²)·32 = 1,342,177,280
    //   + MLP 2·4096·14336·2 experts·32 = 7,516,192,768 → 8,858,370,048 params · 2 B
    //   = 17,716,740,096 B;
    //   plus 131,465,216 dynamic bytes → 17,848,205,312 / 3.35e12 = 5,327.8 µs.
    expect(m.stepTime(step([], [1000]))).toBe(5327);
    // Four decodes: MLP weights scale to 5.46875 experts → 43,788,533,760 B, + 4 · 131,465,216.
    expect(m.stepTime(step([], [1000, 1000, 1000, 1000]))).toBe(13228);
  });
});

describe('BLIS HEAD roofline: bad configs', () => {
  it('refuses a model without heads or dtype, an MoE without experts per token, and TP 0', () => {
    const base = { num_hidden_layers: 2, hidden_size: 64, num_attention_heads: 4, intermediate_size: 128, torch_dtype: 'bfloat16' };
    expect(() => new RooflineLatencyModel(parseModelConfig({ ...base, torch_dtype: 'complex128' }), H100, 1)).toThrow(/torch_dtype/);
    expect(() => new RooflineLatencyModel(parseModelConfig({ ...base, num_local_experts: 8 }), H100, 1)).toThrow(/num_experts_per_tok/);
    expect(() => new RooflineLatencyModel(parseModelConfig(base), H100, 0)).toThrow(LatencyConfigError);
  });

  it('resolve names --model-config when the model has no config', () => {
    expect(() => resolveLatency({ model: 'microsoft/phi-4', latencyModel: 'roofline' })).toThrow(/^--model-config: expected/);
  });
});
