import { LatencyConfigError } from './errors.js';
import type { GpuSpec } from './hardware.js';
import { type ModelArchitecture, kvBytesPerToken, parameterCount } from './model-config.js';

/**
 * KV blocks per instance when neither `--total-kv-blocks` nor a model config says otherwise:
 * BLIS's `--total-kv-blocks` default (effectively unbounded memory).
 */
export const DEFAULT_TOTAL_KV_BLOCKS = 1_000_000;

export interface KVCapacityInput {
  modelConfig: ModelArchitecture;
  hardware: GpuSpec;
  tp: number;
  gpuMemoryUtilization?: number;
  blockSizeTokens?: number;
}

/**
 * Blocks that fit beside the weights: `(memory · utilisation · TP − weight bytes) /
 * (KV bytes per token · block size)`, floored. Throws when the weights alone do not fit.
 */
export function deriveTotalKVBlocks(input: KVCapacityInput): number {
  const util = input.gpuMemoryUtilization ?? 0.9;
  const bs = input.blockSizeTokens ?? 16;
  const budget = input.hardware.memoryGiB * 2 ** 30 * util * input.tp;
  const weights = parameterCount(input.modelConfig) * input.modelConfig.dtypeBytes;
  const free = budget - weights;
  if (free <= 0)
    throw new LatencyConfigError(
      `weights need ${(weights / 2 ** 30).toFixed(1)} GiB but ${input.hardware.name} × TP ${input.tp} at ${util} utilisation offers ${(budget / 2 ** 30).toFixed(1)} GiB; raise --tp or --gpu-memory-utilization, or pass --total-kv-blocks`,
    );
  return Math.floor(free / (kvBytesPerToken(input.modelConfig) * bs));
}

export interface ResolveKVBlocksInput {
  totalKVBlocks?: number;
  modelConfig?: ModelArchitecture;
  hardware?: GpuSpec;
  tp?: number;
  gpuMemoryUtilization?: number;
  blockSizeTokens?: number;
}

/** The flag when given, else derived from memory when a model config is known, else the default. */
export function resolveKVBlocks(input: ResolveKVBlocksInput): { blocks: number; source: 'flag' | 'derived' | 'default' } {
  if (input.totalKVBlocks !== undefined) return { blocks: input.totalKVBlocks, source: 'flag' };
  if (input.modelConfig !== undefined && input.hardware !== undefined)
    return {
      blocks: deriveTotalKVBlocks({
        modelConfig: input.modelConfig,
        hardware: input.hardware,
        tp: input.tp ?? 1,
        gpuMemoryUtilization: input.gpuMemoryUtilization,
        blockSizeTokens: input.blockSizeTokens,
      }),
      source: 'derived',
    };
  return { blocks: DEFAULT_TOTAL_KV_BLOCKS, source: 'default' };
}
