import { join, statSync } from '#host-files';
import { readJsonFile } from './json-file.js';
import { formatParamPath, zodIssueTexts } from '@blis/policies/internal';
import * as z from 'zod';
import { LatencyConfigError } from './errors.js';
import { type KVShape, parseKVShape } from './kv-bytes-per-token.js';
import { type StepModelConfig, parseStepModelConfig } from './step-model-config.js';

/** The architecture facts KV sizing and the step-time models need, from a Hugging Face config.json. */
export interface ModelArchitecture {
  layers: number;
  hiddenSize: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  intermediateSize: number;
  vocabSize: number;
  /** Routed experts (0 for dense models). */
  experts: number;
  expertsPerToken: number;
  moeIntermediateSize: number;
  /** Bytes per weight and per KV element (2 for bf16/fp16, 1 for fp8). */
  dtypeBytes: number;
  tiedEmbeddings: boolean;
  /** The same config read the way BLIS's roofline and trained-physics step-time models read it. */
  step: StepModelConfig;
  /** The same config read the way BLIS sizes offload blocks and P/D transfers (`kvBytesPerTokenPerRank`). */
  kvShape: KVShape;
}

const num = z.number().positive();
const hfConfig = z
  .object({
    num_hidden_layers: z.number().int().positive(),
    hidden_size: z.number().int().positive(),
    num_attention_heads: z.number().int().positive(),
    num_key_value_heads: z.number().int().positive().optional(),
    intermediate_size: z.number().int().positive().optional(),
    vocab_size: z.number().int().positive().optional(),
    head_dim: z.number().int().positive().nullable().optional(),
    torch_dtype: z.string().nullable().optional(),
    num_local_experts: num.optional(),
    num_experts: num.optional(),
    n_routed_experts: num.optional(),
    num_experts_per_tok: num.optional(),
    moe_intermediate_size: num.optional(),
    tie_word_embeddings: z.boolean().optional(),
    quantization_config: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();

/** Reads the architecture from a parsed config.json (top level, or its `text_config` for multimodal models). */
export function parseModelConfig(raw: unknown, where = 'config.json'): ModelArchitecture {
  const obj = (raw ?? {}) as Record<string, unknown>;
  const body = obj.num_hidden_layers === undefined && typeof obj.text_config === 'object' ? { ...(obj.text_config as object), quantization_config: obj.quantization_config } : obj;
  const r = hfConfig.safeParse(body);
  if (!r.success) {
    const [t] = zodIssueTexts(r.error.issues, body);
    // A multimodal config's fields sit under text_config: say so, or the field would not be found.
    const path = body === obj || t.path[0] === 'quantization_config' ? t.path : ['text_config', ...t.path];
    throw new LatencyConfigError(`${where}${path.length > 0 ? ` ${formatParamPath(path, '')}` : ''}: expected ${t.expected}, found ${t.found}`);
  }
  const c = r.data;
  const heads = c.num_attention_heads;
  const quant = c.quantization_config as { quant_method?: string; fmt?: string } | undefined;
  const fp8 = quant !== undefined && /fp8/i.test(`${quant.quant_method ?? ''} ${quant.fmt ?? ''}`);
  const experts = c.num_local_experts ?? c.num_experts ?? c.n_routed_experts ?? 0;
  return {
    layers: c.num_hidden_layers,
    hiddenSize: c.hidden_size,
    heads,
    kvHeads: c.num_key_value_heads ?? heads,
    headDim: c.head_dim ?? c.hidden_size / heads,
    intermediateSize: c.intermediate_size ?? 4 * c.hidden_size,
    vocabSize: c.vocab_size ?? 32000,
    experts,
    expertsPerToken: experts > 0 ? (c.num_experts_per_tok ?? 2) : 0,
    moeIntermediateSize: c.moe_intermediate_size ?? c.intermediate_size ?? 4 * c.hidden_size,
    dtypeBytes: fp8 ? 1 : c.torch_dtype === 'float32' ? 4 : 2,
    tiedEmbeddings: c.tie_word_embeddings ?? false,
    step: parseStepModelConfig(raw),
    kvShape: parseKVShape(raw),
  };
}

/** Loads a config.json from a file, or from `<folder>/config.json`. */
export function loadModelConfig(path: string): ModelArchitecture {
  let file = path;
  try {
    if (statSync(path).isDirectory()) file = join(path, 'config.json');
  } catch (e) {
    // Not only a missing path fails here: an unreadable one, or no file access at all (browser).
    const found = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'nothing there' : (e as Error).message;
    throw new LatencyConfigError(`${path}: expected a readable model config (config.json or its folder), found ${found}`);
  }
  let raw: unknown;
  try {
    raw = readJsonFile(file, (found) => new LatencyConfigError(`${file}: expected JSON, found ${found}`));
  } catch (e) {
    if (e instanceof LatencyConfigError) throw e;
    throw new LatencyConfigError(`${file}: expected a readable model config, found ${(e as Error).message}`);
  }
  return parseModelConfig(raw, file);
}
