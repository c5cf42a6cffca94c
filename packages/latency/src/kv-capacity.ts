import { LatencyConfigError } from './errors.js';
import type { GpuSpec } from './hardware.js';
import { kvBytesPerTokenPerRank } from './kv-bytes-per-token.js';
import { capacityWeightBytesPerRank } from './kv-capacity-weights.js';
import type { ModelArchitecture } from './model-config.js';
import { isMoE } from './step-model-config.js';

/**
 * KV blocks per instance when neither `--total-kv-blocks` nor a model config says otherwise:
 * BLIS's `--total-kv-blocks` default (effectively unbounded memory).
 */
export const DEFAULT_TOTAL_KV_BLOCKS = 1_000_000;

/** vLLM's peak activation memory per replica, GiB (BLIS's and llm-d's capacity-planner figure). */
export const ACTIVATION_RESERVE_GIB = { dense: 5.5, moe: 8 } as const;
/** Memory outside PyTorch's allocator per GPU (CUDA context; NCCL buffers when TP > 1), GiB. */
export const NON_TORCH_RESERVE_GIB = { tp1: 0.15, tpMulti: 0.6 } as const;

const GIB = 2 ** 30;
/** MLP activations BLIS's weight estimate knows: SwiGLU-family, 3 matrices (absent = assumed). */
const SWIGLU_FAMILY = new Set(['silu', 'swiglu', 'geglu', 'situ', '']);

export interface KVCapacityInput {
  modelConfig: ModelArchitecture;
  hardware: GpuSpec;
  tp: number;
  /** Data-parallel ranks of an MoE instance (default 1): each holds its own KV cache. */
  dp?: number;
  gpuMemoryUtilization?: number;
  blockSizeTokens?: number;
  /** HBM set apart for LoRA adapter slots over the TP group, bytes (BLIS's static reservation); 0 = none. */
  adapterReservedBytes?: number;
}

/** Every term of a KV capacity derivation, for the startup line and error messages. */
export interface KVCapacityDerivation {
  tp: number;
  /** Data-parallel ranks: the terms below are one rank's, `blocks` is all ranks'. */
  dp: number;
  memoryGiB: number;
  gpuMemoryUtilization: number;
  blockSizeTokens: number;
  moe: boolean;
  /** Memory the TP group offers: `memoryGiB × utilisation × tp`. */
  budgetGiB: number;
  weightGiB: number;
  activationGiB: number;
  /** Non-torch memory over the TP group: per-GPU reserve × tp. */
  nonTorchGiB: number;
  /** LoRA adapter slots' HBM (0 without adapters). */
  adapterGiB: number;
  /** What is left for KV over the TP group, in bytes (truncated). */
  allocatableBytes: number;
  /** Bytes one token's KV takes on one TP rank (may be fractional). */
  bytesPerTokenPerRank: number;
  /** Bytes one block takes on one TP rank. */
  blockBytesPerRank: number;
  /** All DP ranks' blocks: one rank's count × dp. 0 when not one block fits (the run's limits then say which block size would). */
  blocks: number;
}

/**
 * KV blocks per instance as vLLM sizes them (BLIS's `CalculateKVBlocks`, llm-d's capacity
 * planner): the TP group's memory at the utilisation, less the weights, the activation peak
 * (5.5 GiB, 8 GiB for MoE) and non-torch memory (0.15 GiB per GPU, 0.6 GiB per GPU at TP > 1),
 * divided among the ranks and by one rank's block bytes. Every rank holds every block (its share
 * of the heads), so the count is per rank. At TP 1 this is BLIS's figure exactly; at TP > 1
 * BLIS divides the whole group's memory by one rank's block bytes, counting the split twice
 * (docs/engine-semantics.md); this does not. KV heads fewer than the ranks are replicated, as
 * vLLM does. Throws when the reserves alone do not fit, naming the fewest GPUs that would.
 */
export function deriveKVCapacity(input: KVCapacityInput): KVCapacityDerivation {
  const util = input.gpuMemoryUtilization ?? 0.9;
  const bs = input.blockSizeTokens ?? 16;
  const { tp, hardware } = input;
  const dp = input.dp ?? 1;
  const { step, kvShape } = input.modelConfig;
  const fail = (what: string): never => {
    throw new LatencyConfigError(`KV capacity of ${hardware.name} × TP ${tp}${dp > 1 ? ` × DP ${dp}` : ''}: ${what}; or pass --total-kv-blocks`);
  };
  if (!SWIGLU_FAMILY.has(step.hiddenAct)) fail(`expected a SwiGLU-family hidden_act (silu, swiglu, geglu, situ) to estimate the weights, found "${step.hiddenAct}"`);
  if (step.intermediateSize <= 0) fail('expected intermediate_size (or ffn_hidden_size) > 0 to estimate the weights, found none');
  if (step.vocabSize <= 0) fail('expected vocab_size > 0 to estimate the weights, found none');
  if (!isMoE(step) && step.expertsPerToken > 0) fail(`expected a total expert count (num_local_experts or similar) beside num_experts_per_tok=${step.expertsPerToken}, found none`);
  let perRankPerToken = kvBytesPerTokenPerRank(kvShape, tp);
  const kvHeads = kvShape.kvHeads > 0 ? kvShape.kvHeads : kvShape.heads;
  // vLLM gives every rank at least one whole KV head; BLIS would divide below one.
  if (kvShape.kvLoraRank <= 0 && kvHeads < tp) perRankPerToken = kvBytesPerTokenPerRank(kvShape, kvHeads);
  const blockBytesPerRank = Math.trunc(perRankPerToken * bs);
  if (blockBytesPerRank <= 0) fail(`expected a KV block of at least one byte, found ${perRankPerToken} bytes per token × ${bs} tokens`);
  const moe = isMoE(step);
  // BLIS scales only MoE models by DP (a dense model's DP is refused before this).
  const ranks = moe ? dp : 1;
  const budgetGiB = hardware.memoryGiB * util * tp;
  const weightGiB = capacityWeightBytesPerRank(step, kvShape, input.modelConfig.tiedEmbeddings, ranks) / GIB;
  const activationGiB = moe ? ACTIVATION_RESERVE_GIB.moe : ACTIVATION_RESERVE_GIB.dense;
  const nonTorchPerGpu = tp === 1 ? NON_TORCH_RESERVE_GIB.tp1 : NON_TORCH_RESERVE_GIB.tpMulti;
  const nonTorchGiB = nonTorchPerGpu * tp;
  // Adapter slots are reserved once beside the weights (sharded like them, so TP-independent).
  const adapterGiB = (input.adapterReservedBytes ?? 0) / GIB;
  const overheadGiB = adapterGiB > 0 ? weightGiB + activationGiB + nonTorchGiB + adapterGiB : weightGiB + activationGiB + nonTorchGiB;
  if (overheadGiB >= budgetGiB) {
    const perGpu = hardware.memoryGiB * util - NON_TORCH_RESERVE_GIB.tpMulti;
    const least = perGpu > 0 ? `; at least ${Math.ceil((weightGiB + activationGiB + adapterGiB) / perGpu)} GPUs per instance would` : '';
    const adapters = adapterGiB > 0 ? ` + LoRA adapter slots ${adapterGiB.toFixed(2)} GiB` : '';
    fail(
      `weights ${weightGiB.toFixed(2)} GiB + activations ${activationGiB.toFixed(2)} GiB + non-torch ${nonTorchGiB.toFixed(2)} GiB${adapters} need more than the ${budgetGiB.toFixed(2)} GiB offered at ${util} utilisation${least}; raise --tp or --gpu-memory-utilization`,
    );
  }
  const allocatableBytes = Math.trunc((budgetGiB - overheadGiB) * GIB);
  // Each DP rank is its own vLLM engine with its own cache of this many blocks (and its own adapter slots).
  const blocks = Math.floor(allocatableBytes / (tp * blockBytesPerRank)) * ranks;
  return { tp, dp: ranks, memoryGiB: hardware.memoryGiB, gpuMemoryUtilization: util, blockSizeTokens: bs, moe, budgetGiB, weightGiB, activationGiB, nonTorchGiB, adapterGiB, allocatableBytes, bytesPerTokenPerRank: perRankPerToken, blockBytesPerRank, blocks };
}

/** The block count of {@link deriveKVCapacity}. */
export function deriveTotalKVBlocks(input: KVCapacityInput): number {
  return deriveKVCapacity(input).blocks;
}

/** `80 GiB × 0.9 × TP 1 − 14.96 weights − 5.5 activations − 0.15 non-torch = 51.39 GiB / 131072 B per block`. */
export function describeKVCapacity(d: KVCapacityDerivation): string {
  const ranks = d.tp === 1 ? '' : ` / ${d.tp} ranks`;
  const dp = d.dp > 1 ? `, × DP ${d.dp}` : '';
  const adapters = d.adapterGiB > 0 ? ` − ${d.adapterGiB.toFixed(2)} LoRA adapter slots` : '';
  return `${d.memoryGiB} GiB × ${d.gpuMemoryUtilization} × TP ${d.tp} − ${d.weightGiB.toFixed(2)} weights − ${d.activationGiB} activations − ${d.nonTorchGiB.toFixed(2)} non-torch${adapters} = ${(d.allocatableBytes / GIB).toFixed(2)} GiB${ranks} / ${d.blockBytesPerRank} B per block${dp}`;
}

export interface ResolveKVBlocksInput {
  totalKVBlocks?: number;
  modelConfig?: ModelArchitecture;
  hardware?: GpuSpec;
  tp?: number;
  /** Data-parallel ranks of an MoE instance (default 1). */
  dp?: number;
  gpuMemoryUtilization?: number;
  blockSizeTokens?: number;
  /** LoRA adapter slots' HBM, bytes: taken from the derived budget only, never from an explicit count. */
  adapterReservedBytes?: number;
}

export type ResolvedKVBlocks =
  | { blocks: number; source: 'flag' | 'default'; derivation?: undefined }
  | { blocks: number; source: 'derived'; derivation: KVCapacityDerivation };

/** The flag when given, else derived from memory when a model config is known, else the default. */
export function resolveKVBlocks(input: ResolveKVBlocksInput): ResolvedKVBlocks {
  if (input.totalKVBlocks !== undefined) return { blocks: input.totalKVBlocks, source: 'flag' };
  if (input.modelConfig !== undefined && input.hardware !== undefined) {
    const derivation = deriveKVCapacity({
      modelConfig: input.modelConfig,
      hardware: input.hardware,
      tp: input.tp ?? 1,
      dp: input.dp,
      gpuMemoryUtilization: input.gpuMemoryUtilization,
      blockSizeTokens: input.blockSizeTokens,
      adapterReservedBytes: input.adapterReservedBytes,
    });
    return { blocks: derivation.blocks, source: 'derived', derivation };
  }
  return { blocks: DEFAULT_TOTAL_KV_BLOCKS, source: 'default' };
}
