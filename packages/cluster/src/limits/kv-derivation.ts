import { type ResolvedLatency, kvBytesPerToken, parameterCount } from '@blis/latency';
import type { SimulationConfig } from '../config-schema.js';
import type { KVDerivation } from './config-limits.js';

/** The facts a derived KV block count came from (as @blis/latency's deriveTotalKVBlocks computes it). */
export function kvDerivationOf(config: SimulationConfig, resolved: ResolvedLatency): KVDerivation | undefined {
  const m = resolved.modelConfig;
  const hw = resolved.hardware;
  if (m === undefined || hw === undefined) return undefined;
  const budget = hw.memoryGiB * 2 ** 30 * config.gpuMemoryUtilization * resolved.tp;
  return {
    model: resolved.modelId,
    gpu: hw.name,
    tp: resolved.tp,
    gpuMemoryUtilization: config.gpuMemoryUtilization,
    freeBytes: budget - parameterCount(m) * m.dtypeBytes,
    kvBytesPerToken: kvBytesPerToken(m),
  };
}
