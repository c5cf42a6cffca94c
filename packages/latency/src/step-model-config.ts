/**
 * The architecture facts BLIS's step-time models (roofline and trained-physics) read from a
 * Hugging Face config.json, with BLIS's own field fallbacks. They are kept apart from the
 * facts KV sizing uses so that KV capacity keeps its results (the two paths read some fields
 * differently in BLIS too, e.g. 3 MLP matrices for capacity, 2 for roofline step time).
 *
 * A value of 0 means "absent" wherever BLIS treats it so (the consumer then falls back).
 */
export interface StepModelConfig {
  layers: number;
  hiddenSize: number;
  heads: number;
  /** `num_key_value_heads`, else `num_kv_heads`, else `multi_query_group_num`, else `heads`. */
  kvHeads: number;
  /** `intermediate_size`, else `ffn_hidden_size`; 0 when neither is given. */
  intermediateSize: number;
  /** Routed experts: the first of num_experts, moe_num_experts, n_routed_experts, num_local_experts, num_routed_experts that is at least 2; else 0. */
  experts: number;
  /** `num_experts_per_tok` as given (0 when absent). */
  expertsPerToken: number;
  /** Per-routed-expert FFN width (`moe_intermediate_size`); 0 = use `intermediateSize`. */
  moeExpertFfnDim: number;
  /** Total shared-expert FFN width; 0 = no shared experts. */
  sharedExpertFfnDim: number;
  /** 0 = every layer the same kind; k > 0 = one MoE layer in every k + 1 (Llama-4 Scout: 1). */
  interleaveMoeLayerStep: number;
  /** Dense-layer FFN width of interleaved models (`intermediate_size_mlp`); 0 = use `intermediateSize`. */
  denseIntermediateSize: number;
  /** Compute/activation dtype width from `torch_dtype` (or `dtype`); 0 when unrecognised. */
  bytesPerParam: number;
  /** Quantized weight width from `quantization_config` or the model name; 0 = not quantized. */
  quantizedWeightBytesPerParam: number;
  hiddenAct: string;
  /** `vocab_size` as given (0 when absent): KV capacity sizes the embeddings and LM head with it. */
  vocabSize: number;
  /** MoE models whose first k layers are dense (`first_k_dense_replace`); 0 = none. */
  firstKDenseReplace: number;
}

/** Fewest routed experts that make a model mixture-of-experts (a single expert is dense). */
export const MOE_MIN_EXPERTS = 2;

const DTYPE_BYTES: Record<string, number> = { float32: 4, float16: 2, bfloat16: 2, int8: 1, uint8: 1, fp8: 1, int4: 1, nf4: 1 };
const EXPERT_COUNT_FIELDS = ['num_experts', 'moe_num_experts', 'n_routed_experts', 'num_local_experts', 'num_routed_experts'];

/** Whether the model routes tokens to experts. */
export function isMoE(c: StepModelConfig): boolean {
  return c.experts >= MOE_MIN_EXPERTS;
}

/** Bytes per weight for bandwidth: the quantized width when known, else the compute dtype's. */
export function effectiveWeightBytesPerParam(c: StepModelConfig): number {
  return c.quantizedWeightBytesPerParam > 0 ? c.quantizedWeightBytesPerParam : c.bytesPerParam;
}

/**
 * Peak TFLOP/s a step runs at: the FP8 tensor-core rate when weights are exactly 1 byte and the
 * GPU has one (sub-byte formats dequantize to 16-bit for the GEMMs), else the 16-bit rate.
 */
export function peakTflops(c: StepModelConfig, gpu: { tflopsPeak: number; tflopsFp8: number }): number {
  return effectiveWeightBytesPerParam(c) === 1 && gpu.tflopsFp8 > 0 ? gpu.tflopsFp8 : gpu.tflopsPeak;
}

/** MoE and dense layer counts: interleaved models alternate, uniform MoE models are all MoE. */
export function layerSplit(c: StepModelConfig): { moeLayers: number; denseLayers: number } {
  if (!isMoE(c)) return { moeLayers: 0, denseLayers: c.layers };
  if (c.interleaveMoeLayerStep > 0) {
    const moeLayers = Math.trunc(c.layers / (c.interleaveMoeLayerStep + 1));
    return { moeLayers, denseLayers: c.layers - moeLayers };
  }
  return { moeLayers: c.layers, denseLayers: 0 };
}

function int(raw: Record<string, unknown>, key: string): number {
  const v = raw[key];
  // BLIS reads JSON numbers and converts them toward zero; anything else counts as absent.
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0;
}

function firstNonZero(raw: Record<string, unknown>, ...keys: string[]): number {
  for (const k of keys) {
    const v = int(raw, k);
    if (v !== 0) return v;
  }
  return 0;
}

/** Weight width implied by a `quantization_config` block; 0 when it says nothing usable. */
export function quantizedWeightBytes(qc: unknown): number {
  if (qc === null || typeof qc !== 'object') return 0;
  const q = qc as Record<string, unknown>;
  let bits = 0;
  if (typeof q.bits === 'number') bits = Math.trunc(q.bits);
  else if (typeof q.bits === 'string' && /^[+-]?\d+$/.test(q.bits.trim())) bits = Number.parseInt(q.bits, 10);
  if (bits > 0) return bits / 8;
  const method = typeof q.quant_method === 'string' ? q.quant_method.toLowerCase() : '';
  if (method === 'fp8') return 1;
  if (method === 'compressed-tensors' && q.config_groups !== null && typeof q.config_groups === 'object') {
    // Sorted group names make the pick independent of JSON key order.
    const groups = q.config_groups as Record<string, unknown>;
    for (const name of Object.keys(groups).sort()) {
      const weights = (groups[name] as { weights?: { num_bits?: unknown } } | null)?.weights;
      const nb = weights?.num_bits;
      if (typeof nb === 'number' && nb > 0) return nb / 8;
    }
  }
  return 0;
}

/** Weight width suggested by a model name (`w4a16` → 0.5, `FP8` → 1); 0 when it suggests none. */
export function weightBytesFromModelName(name: string): number {
  const wa = /(?:^|[.\-_/])w(\d+)a\d+(?:$|[.\-_])/i.exec(name);
  if (wa !== null) {
    const bits = Number.parseInt(wa[1], 10);
    if (bits > 0) return bits / 8;
  }
  return /(?:^|[.\-_/])fp8(?:$|[.\-_])/i.test(name) ? 1 : 0;
}

/**
 * Reads the step-time facts from a parsed config.json. Multimodal configs keep their text
 * model under `text_config`, whose keys take precedence over the top level's.
 */
export function parseStepModelConfig(rawConfig: unknown): StepModelConfig {
  const top = (rawConfig ?? {}) as Record<string, unknown>;
  const text = top.text_config;
  const raw = text !== null && typeof text === 'object' ? { ...top, ...(text as Record<string, unknown>) } : top;
  const heads = int(raw, 'num_attention_heads');
  const kvHeads = firstNonZero(raw, 'num_key_value_heads', 'num_kv_heads', 'multi_query_group_num') || heads;
  const dtype = typeof raw.torch_dtype === 'string' ? raw.torch_dtype : typeof raw.dtype === 'string' ? raw.dtype : '';
  const intermediateSize = firstNonZero(raw, 'intermediate_size', 'ffn_hidden_size');
  let experts = 0;
  for (const k of EXPERT_COUNT_FIELDS) {
    if (int(raw, k) >= MOE_MIN_EXPERTS) {
      experts = int(raw, k);
      break;
    }
  }
  const moeExpertFfnDim = int(raw, 'moe_intermediate_size');
  let sharedExpertFfnDim = int(raw, 'shared_expert_intermediate_size');
  if (sharedExpertFfnDim <= 0) {
    const shared = int(raw, 'n_shared_experts');
    sharedExpertFfnDim = shared > 0 ? shared * (moeExpertFfnDim || intermediateSize) : 0;
  }
  return {
    layers: int(raw, 'num_hidden_layers'),
    hiddenSize: int(raw, 'hidden_size'),
    heads,
    kvHeads,
    intermediateSize,
    experts,
    expertsPerToken: int(raw, 'num_experts_per_tok'),
    moeExpertFfnDim,
    sharedExpertFfnDim,
    interleaveMoeLayerStep: int(raw, 'interleave_moe_layer_step'),
    denseIntermediateSize: int(raw, 'intermediate_size_mlp'),
    bytesPerParam: Object.hasOwn(DTYPE_BYTES, dtype) ? DTYPE_BYTES[dtype] : 0,
    quantizedWeightBytesPerParam: quantizedWeightBytes(raw.quantization_config),
    hiddenAct: typeof raw.hidden_act === 'string' ? raw.hidden_act : '',
    vocabSize: int(raw, 'vocab_size'),
    firstKDenseReplace: int(raw, 'first_k_dense_replace'),
  };
}
