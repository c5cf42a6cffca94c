import { type ResolvedLatency, resolveLatency } from '@blis/latency';
import { resolveKVBlocks } from '@blis/latency/internal';
import type { SimulationConfig } from './config-schema.js';
import { loraReservedBytes } from './lora/lora-reservation.js';

/** What a pool may set apart from the global model settings (P/D's per-pool overrides). */
export interface ModelOverrides {
  tp?: number;
  hardware?: string;
  latencyModel?: SimulationConfig['latencyModel'];
}

/**
 * The latency model and KV capacity of instances running `config.model`, with `overrides` in
 * place of the global TP, GPU and latency model (none: the cluster-wide instances).
 */
export function resolveInstanceModel(config: SimulationConfig, overrides: ModelOverrides = {}): { resolved: ResolvedLatency; kv: ReturnType<typeof resolveKVBlocks> } {
  const resolved = resolveLatency({
    model: config.model,
    hardware: overrides.hardware ?? config.hardware,
    tp: overrides.tp ?? config.tp,
    latencyModel: overrides.latencyModel ?? config.latencyModel,
    alphaCoeffs: config.alphaCoeffs,
    betaCoeffs: config.betaCoeffs,
    vllmVersion: config.vllmVersion,
    modelConfigPath: config.modelConfigPath,
    hardwareConfigPath: config.hardwareConfigPath,
    ...(config.trainedPhysicsCoefficients !== undefined ? { trainedPhysicsDefaults: config.trainedPhysicsCoefficients } : {}),
    parallelism: { dp: config.dp, enableExpertParallel: config.enableExpertParallel, moeCommBackend: config.moeCommBackend },
  });
  const kv = resolveKVBlocks({
    totalKVBlocks: config.totalKVBlocks,
    modelConfig: resolved.modelConfig,
    hardware: resolved.hardware,
    tp: resolved.tp,
    dp: resolved.dp,
    gpuMemoryUtilization: config.gpuMemoryUtilization,
    blockSizeTokens: config.blockSizeTokens,
    adapterReservedBytes: loraReservedBytes(config.lora),
  });
  return { resolved, kv };
}
