import { LatencyConfigError } from './errors.js';

/**
 * The config.json facts BLIS's `KVBytesPerToken` reads, with its fallbacks. They are kept apart
 * from `ModelArchitecture`'s capacity facts because the two read some fields differently
 * (the precision here is the compute dtype even for quantized weights, and `head_dim` 0 means
 * "derive it"), and capacity sizing keeps its results.
 */
export interface KVShape {
  layers: number;
  heads: number;
  hiddenSize: number;
  /** `num_key_value_heads`, else `num_kv_heads`, else `multi_query_group_num`; 0 = as many as `heads`. */
  kvHeads: number;
  /** `head_dim` as given; 0 = `hiddenSize / heads`. */
  headDim: number;
  /** Compute dtype width from `torch_dtype` (or `dtype`): KV is stored at compute precision; 0 when unrecognised. */
  bytesPerParam: number;
  /** MLA compressed-KV latent rank (`kv_lora_rank`); 0 = standard MHA/GQA. */
  kvLoraRank: number;
  /** MLA decoupled-RoPE key width (`qk_rope_head_dim`), the second part of the latent. */
  qkRopeHeadDim: number;
}

const DTYPE_BYTES: Record<string, number> = { float32: 4, float16: 2, bfloat16: 2, int8: 1, uint8: 1, fp8: 1, int4: 1, nf4: 1 };

function int(raw: Record<string, unknown>, key: string): number {
  const v = raw[key];
  // BLIS reads JSON numbers and converts them toward zero; anything else counts as absent.
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0;
}

/** Reads the KV shape from a parsed config.json; a multimodal `text_config` overrides the top level. */
export function parseKVShape(rawConfig: unknown): KVShape {
  const top = (rawConfig ?? {}) as Record<string, unknown>;
  const text = top.text_config;
  const raw = text !== null && typeof text === 'object' ? { ...top, ...(text as Record<string, unknown>) } : top;
  const dtype = typeof raw.torch_dtype === 'string' ? raw.torch_dtype : typeof raw.dtype === 'string' ? raw.dtype : '';
  return {
    layers: int(raw, 'num_hidden_layers'),
    heads: int(raw, 'num_attention_heads'),
    hiddenSize: int(raw, 'hidden_size'),
    kvHeads: int(raw, 'num_key_value_heads') || int(raw, 'num_kv_heads') || int(raw, 'multi_query_group_num'),
    headDim: int(raw, 'head_dim'),
    bytesPerParam: Object.hasOwn(DTYPE_BYTES, dtype) ? DTYPE_BYTES[dtype] : 0,
    kvLoraRank: int(raw, 'kv_lora_rank'),
    qkRopeHeadDim: int(raw, 'qk_rope_head_dim'),
  };
}

/**
 * KV-cache bytes one token occupies on ONE tensor-parallel rank, as BLIS's `KVBytesPerToken`
 * computes them for offload block sizing and P/D transfers (reference §2.5):
 *
 * - MHA/GQA: `layers × 2 × headDim × kvHeads × bytesPerParam / tp`. `kvHeads` must divide
 *   evenly by `tp` when it is at least `tp`; below `tp` BLIS still divides, a documented
 *   underestimate (real engines replicate the heads), and so does this.
 * - MLA (`kv_lora_rank > 0`): `layers × (kv_lora_rank + qk_rope_head_dim) × bytesPerParam`,
 *   not divided by `tp`, because every rank holds the whole latent.
 *
 * The result may be fractional; callers truncate after multiplying by the block size, as BLIS
 * does. Throws a {@link LatencyConfigError} naming the bad field.
 */
export function kvBytesPerTokenPerRank(shape: KVShape, tp: number): number {
  const fail = (what: string) => {
    throw new LatencyConfigError(`KV bytes per token: ${what}`);
  };
  if (!Number.isInteger(tp) || tp <= 0) fail(`expected a tensor parallelism > 0, found ${tp}`);
  if (shape.layers <= 0) fail(`expected num_hidden_layers > 0, found ${shape.layers}`);
  if (shape.heads <= 0) fail(`expected num_attention_heads > 0, found ${shape.heads}`);
  if (shape.hiddenSize <= 0) fail(`expected hidden_size > 0, found ${shape.hiddenSize}`);
  if (shape.bytesPerParam <= 0) fail('expected a torch_dtype (or dtype) of float32, float16, bfloat16, int8, uint8, fp8, int4 or nf4, found none');
  if (shape.kvLoraRank > 0) {
    const latent = shape.kvLoraRank + shape.qkRopeHeadDim;
    if (latent <= 0) fail(`expected kv_lora_rank + qk_rope_head_dim > 0, found ${latent}`);
    return shape.layers * latent * shape.bytesPerParam;
  }
  if (shape.headDim <= 0 && shape.hiddenSize % shape.heads !== 0)
    fail(`expected hidden_size (${shape.hiddenSize}) divisible by num_attention_heads (${shape.heads}) when head_dim is absent, found a remainder`);
  const kvHeads = shape.kvHeads > 0 ? shape.kvHeads : shape.heads;
  if (kvHeads >= tp && kvHeads % tp !== 0) fail(`expected the ${kvHeads} KV heads to divide evenly by TP ${tp}, found a remainder of ${kvHeads % tp}`);
  const headDim = shape.headDim > 0 ? shape.headDim : shape.hiddenSize / shape.heads;
  return (shape.layers * 2 * headDim * kvHeads * shape.bytesPerParam) / tp;
}
