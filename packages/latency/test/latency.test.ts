import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BlackboxLatencyModel,
  LatencyConfigError,
  RooflineLatencyModel,
  deriveTotalKVBlocks,
  findCoefficients,
  hardwareSpec,
  knownModels,
  parseModelConfig,
  resolveLatency,
  workloadPreset,
} from '../src/index.js';
import {
  DEFAULT_TOTAL_KV_BLOCKS,
  createStepBatch,
  modelConfigRaw,
  resolveKVBlocks,
} from '../src/internal.js';

const LLAMA_ALPHA = [10326.268121600151, 0, 0];
const LLAMA_BETA = [6472.007648778123, 19.79721387814611, 304.4021040302657];

function batch(prefill: [number, number][], decodeContexts: number[]) {
  const b = createStepBatch();
  prefill.forEach(([n, s], i) => {
    b.prefillNewTokens[i] = n;
    b.prefillContextStart[i] = s;
    b.prefillInputTokens[i] = s + n;
    b.prefillTokens += n;
  });
  b.prefillCount = prefill.length;
  decodeContexts.forEach((c, i) => {
    b.decodeContext[i] = c;
  });
  b.decodeCount = decodeContexts.length;
  b.decodeTokens = decodeContexts.length;
  return b;
}

describe('blackbox model', () => {
  const m = new BlackboxLatencyModel(LLAMA_ALPHA, LLAMA_BETA);
  it('matches hand-computed BLIS step times', () => {
    // trunc(6472.007648778123 + 19.79721387814611 * 374) = trunc(13876.0655...) = 13876
    expect(m.stepTime(batch([[374, 0]], []))).toBe(13876);
    // trunc(6472.007648778123 + 304.4021040302657) = 6776
    expect(m.stepTime(batch([], [100]))).toBe(6776);
    // 2048 prefill tokens and 3 decodes: trunc(6472.0076 + 40544.69 + 913.21) = 47929
    expect(m.stepTime(batch([[2048, 0]], [1, 2, 3]))).toBe(Math.trunc(6472.007648778123 + 19.79721387814611 * 2048 + 304.4021040302657 * 3));
    expect(m.queueingTime(4808)).toBe(10326);
    expect(m.outputTokenTime()).toBe(0);
  });
  it('never returns less than one tick', () => {
    expect(new BlackboxLatencyModel([0, 0, 0], [-50, 0, 0]).stepTime(batch([], []))).toBe(1);
  });
  it('truncates alpha terms toward zero', () => {
    const a = new BlackboxLatencyModel([100.9, 0.5, 7.99], [1, 1, 1]);
    expect(a.queueingTime(3)).toBe(102);
    expect(a.outputTokenTime()).toBe(7);
  });
});

describe('roofline model', () => {
  // A tiny dense model: 2 layers, hidden 64, 4 heads of 16, 2 KV heads, MLP 128, vocab 100, bf16.
  const tiny = parseModelConfig({ num_hidden_layers: 2, hidden_size: 64, num_attention_heads: 4, num_key_value_heads: 2, intermediate_size: 128, vocab_size: 100, torch_dtype: 'bfloat16' });
  const gpu = { name: 'toy', tflopsPeak: 1e-6, tflopsFp8: 0, bandwidthTBs: 1e-6, mfuPrefill: 0.5, mfuDecode: 0.25, memoryGiB: 1 };
  it('computes FLOPs and bytes by hand for one decode (BLIS HEAD formula)', () => {
    // Decode at context 10, dHead 16, dKV 32. FLOPs: projections (2·(64² + 2·64·32) + 2·64²)·2
    // = 49152; attention 4·4·10·16·2 = 5120; softmax/RoPE (5·4·10 + 2·64)·2 = 656; MLP with
    // 2 matrices 2·(2·64·128)·2 = 65536 → 120464 FLOPs at MFU 0.25 on 1e6 FLOP/s = 0.481856 s.
    const flops = 49152 + 5120 + 656 + 65536;
    // Bytes: weights (64·128 + 64² + 2·64·128)·2 layers·2 B = 114688 (no embeddings or LM head);
    // KV written 256, KV read 10·256, activations 256 → 117760 B at 1e6 B/s = 0.11776 s.
    const bytes = 114688 + 256 + 2560 + 256;
    const m = new RooflineLatencyModel(tiny, gpu, 1);
    expect(m.stepTime(batch([], [10]))).toBe(Math.trunc(Math.max(flops / (1e6 * 0.25), bytes / 1e6) * 1e6));
    expect(m.stepTime(batch([], [10]))).toBe(481856);
  });
  it('never gets faster with more work (fast-check)', () => {
    const m = new RooflineLatencyModel(tiny, gpu, 2);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 0, max: 64 }), fc.integer({ min: 1, max: 500 }), (n, s, d, extra) => {
        const base = m.stepTime(batch([[n, s]], Array(d).fill(100)));
        expect(m.stepTime(batch([[n + extra, s]], Array(d).fill(100)))).toBeGreaterThanOrEqual(base);
        expect(m.stepTime(batch([[n, s]], Array(d + 1).fill(100)))).toBeGreaterThanOrEqual(base);
      }),
    );
  });
  it('runs qwen/qwen3-14b from the shipped config with a sane step time', () => {
    const r = resolveLatency({ model: 'qwen/qwen3-14b', latencyModel: 'roofline' });
    expect(r.kind).toBe('roofline');
    const prefill = r.model.stepTime(batch([[2048, 0]], []));
    const decode = r.model.stepTime(batch([], [1000]));
    // 14B bf16 weights on one H100 (3.35 TB/s): a decode step reads ~28 GB, about 8-9 ms.
    expect(decode).toBeGreaterThan(5_000);
    expect(decode).toBeLessThan(20_000);
    expect(prefill).toBeGreaterThan(decode);
  });
});

describe('catalogue and resolution', () => {
  it('defaults to trained-physics (BLIS HEAD) on the model\'s default GPU and TP when its config is known', () => {
    const r = resolveLatency({ model: 'meta-llama/llama-3.1-8b-instruct' });
    expect(r.kind).toBe('trained-physics');
    expect(r.gpu).toBe('H100');
    expect(r.tp).toBe(1);
    expect(r.alpha).toEqual([15563.199579, 777.3455, 45.907545]);
    // A model with trained blackbox coefficients but no HF config in the catalogue stays blackbox.
    expect(modelConfigRaw('ibm-granite/granite-3.1-8b-instruct')).toBeUndefined();
    expect(resolveLatency({ model: 'ibm-granite/granite-3.1-8b-instruct' }).kind).toBe('blackbox');
    // Blackbox-shaped input selects blackbox: 3 betas, or a vLLM image's trained entry.
    expect(resolveLatency({ model: 'meta-llama/llama-3.1-8b-instruct', alphaCoeffs: [1, 2, 3], betaCoeffs: [4, 5, 6] }).kind).toBe('blackbox');
    expect(resolveLatency({ model: 'meta-llama/llama-3.1-8b-instruct', vllmVersion: 'vllm/vllm-openai:v0.11.0' }).kind).toBe('blackbox');
  });
  it('picks the default GPU/TP and the default vLLM version for --model alone under blackbox', () => {
    const r = resolveLatency({ model: 'meta-llama/llama-3.1-8b-instruct', latencyModel: 'blackbox' });
    expect(r.kind).toBe('blackbox');
    expect(r.gpu).toBe('H100');
    expect(r.tp).toBe(1);
    expect(r.vllmVersion).toBe('vllm/vllm-openai:v0.11.0');
    expect(r.alpha).toEqual(LLAMA_ALPHA);
    expect(r.beta).toEqual(LLAMA_BETA);
  });
  it('uses explicit coefficients for any model name', () => {
    const r = resolveLatency({ model: 'my/model', alphaCoeffs: [1, 2, 3], betaCoeffs: [4, 5, 6] });
    expect(r.kind).toBe('blackbox');
    expect(r.model.queueingTime(10)).toBe(21);
  });
  it('fails for an unknown model with the list of known ones', () => {
    expect(() => resolveLatency({ model: 'nope/nope' })).toThrow(LatencyConfigError);
    expect(() => resolveLatency({ model: 'nope/nope' })).toThrow(/known models: .*meta-llama\/llama-3.1-8b-instruct/);
    expect(() => resolveLatency({ model: 'meta-llama/llama-3.1-8b-instruct', hardware: 'TPU9' })).toThrow(/unknown hardware "TPU9"; known: .*H100/);
  });
  it('refuses a vLLM version the catalogue has no coefficients for, listing the trained ones', () => {
    // It used to fall back to roofline without a word.
    expect(() => resolveLatency({ model: 'meta-llama/llama-3.1-8b-instruct', vllmVersion: '9.9' })).toThrow(
      '--vllm-version: expected a vLLM version trained for meta-llama/llama-3.1-8b-instruct on H100 TP1 (0.11.0), found "9.9"',
    );
    expect(() => resolveLatency({ model: 'meta-llama/llama-3.1-8b-instruct', hardware: 'L40S', vllmVersion: '0.8.4' })).toThrow(/^--vllm-version: expected a deployment with trained coefficients for .*\(A100-80 TP1, .*H100 TP1.*\), found "0.8.4" on L40S TP1$/);
    expect(resolveLatency({ model: 'meta-llama/llama-3.1-8b-instruct', vllmVersion: '0.11.0' }).vllmVersion).toBe('vllm/vllm-openai:v0.11.0');
  });
  it('names the GPU or TP when a known model has no coefficients there (not "unknown model")', () => {
    expect(() => resolveLatency({ model: 'openai/gpt-oss-120b', hardware: 'L40S' })).toThrow(
      '--hardware: expected a deployment with trained coefficients for openai/gpt-oss-120b (H100 TP1, H100 TP2, H100 TP4, H100 TP8), or --model-config with its Hugging Face config.json for roofline, found "L40S"',
    );
    expect(() => resolveLatency({ model: 'openai/gpt-oss-120b', tp: 3 })).toThrow(/^--tp: expected a deployment .*found 3 \(on H100\)$/);
  });
  it('ships every coefficient entry and the presets', () => {
    expect(knownModels()).toContain('qwen/qwen3-14b');
    expect(findCoefficients('meta-llama/llama-3.1-8b-instruct', 'H100', 1)?.beta).toEqual(LLAMA_BETA);
    expect(workloadPreset('chatbot')).toMatchObject({ prompt_tokens: 256, output_tokens: 256 });
    expect(() => workloadPreset('nope')).toThrow(/chatbot/);
  });
});

describe('KV capacity', () => {
  it('derives llama-3.1-8b on one H100 by hand', () => {
    const m = parseModelConfig({ num_hidden_layers: 32, hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, intermediate_size: 14336, vocab_size: 128256, torch_dtype: 'bfloat16', hidden_act: 'silu' });
    // Embeddings and LM head, per layer attention (Q and O hidden², K and V hidden·1024) and two norms, SwiGLU MLP, final norm.
    const params = 128256 * 4096 * 2 + 32 * (4096 * 4096 + 2 * 4096 * 1024 + 4096 * 4096 + 2 * 4096 + 3 * 4096 * 14336) + 4096;
    const free = Math.trunc((80 * 0.9 - (params * 2) / 2 ** 30 - 5.5 - 0.15) * 2 ** 30);
    const perBlock = 2 * 32 * 8 * 128 * 2 * 16;
    expect(deriveTotalKVBlocks({ modelConfig: m, hardware: hardwareSpec('H100'), tp: 1 })).toBe(Math.floor(free / perBlock));
  });
  it('prefers the flag, then the derivation, then the documented default', () => {
    expect(resolveKVBlocks({ totalKVBlocks: 7463 })).toEqual({ blocks: 7463, source: 'flag' });
    expect(resolveKVBlocks({})).toEqual({ blocks: DEFAULT_TOTAL_KV_BLOCKS, source: 'default' });
  });
  it('refuses weights that do not fit', () => {
    const r = resolveLatency({ model: 'meta-llama/llama-3.1-70b-instruct', latencyModel: 'roofline', tp: 1 });
    expect(() => deriveTotalKVBlocks({ modelConfig: r.modelConfig!, hardware: r.hardware!, tp: 1 })).toThrow(/raise --tp/);
  });
});
