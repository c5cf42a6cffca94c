import { MAX_CLOCK_US } from '@blis/engine';
import { MAX_CLOCK_TEXT, minRateWithinClock } from '@blis/engine/internal';
import type { SimulationConfig } from '../config-schema.js';
import { autoscalerTickIssues } from './autoscaler-ticks.js';
import { RUN_LIMITS } from './run-limits.js';
import type { RunLimitIssue } from './run-limit-error.js';

/**
 * What the config alone says about the run's size, before the model is resolved: instances, a
 * given KV block count, block size, request lengths and counts, time-series samples.
 */
export function configLimitIssues(config: SimulationConfig): RunLimitIssue[] {
  const issues: RunLimitIssue[] = [];
  const atMost = (path: (string | number)[], limit: number, unit: string, value: number | undefined) => {
    if (value !== undefined && value > limit) issues.push({ path, expected: `at most ${limit} ${unit}`, found: String(value) });
  };
  atMost(['numInstances'], RUN_LIMITS.maxInstances, 'instances', config.numInstances);
  atMost(['totalKVBlocks'], RUN_LIMITS.maxKVBlocksPerInstance, 'KV blocks per instance', config.totalKVBlocks);
  // The CPU tier's arrays are sized per block like the GPU cache's, so the same bound holds.
  atMost(['kvCpuBlocks'], RUN_LIMITS.maxKVBlocksPerInstance, 'CPU KV blocks per instance', config.kvCpuBlocks);
  atMost(['maxNumSeqs'], RUN_LIMITS.maxNumSeqs, 'sequences per batch', config.maxNumSeqs);
  atMost(['blockSizeTokens'], RUN_LIMITS.maxBlockSizeTokens, 'tokens per block', config.blockSizeTokens);
  atMost(['timeseriesMaxSamples'], RUN_LIMITS.maxTimeseriesSamples, 'samples per signal', config.timeseriesMaxSamples);
  const w = config.workload;
  if (w.kind === 'synthetic') {
    for (const field of ['promptTokens', 'promptTokensMin', 'promptTokensMax', 'outputTokens', 'outputTokensMin', 'outputTokensMax', 'prefixTokens'] as const)
      atMost(['workload', field], RUN_LIMITS.maxTokensPerRequest, 'tokens per request', w[field]);
  }
  atMost(['workload', w.kind === 'trace' ? 'maxRequests' : 'numRequests'], RUN_LIMITS.maxRequests, 'requests', w.kind === 'trace' ? w.maxRequests : w.numRequests);
  if (config.horizonUs !== undefined && config.horizonUs > MAX_CLOCK_US)
    issues.push({ path: ['horizonUs'], expected: `a horizon of at most ${MAX_CLOCK_TEXT}`, found: String(config.horizonUs) });
  // Without a horizon, every request arrives: at a rate of 1e-300 req/s past the clock's range,
  // where each would only time out at some absurd instant.
  if (w.kind === 'synthetic' && config.horizonUs === undefined && (w.numRequests / w.rate) * 1e6 > MAX_CLOCK_US)
    issues.push({
      path: ['workload', 'rate'],
      expected: `at least ${minRateWithinClock(w.numRequests)} requests per second (${w.numRequests} requests arriving within ${MAX_CLOCK_TEXT})`,
      found: String(w.rate),
    });
  issues.push(...autoscalerTickIssues(config));
  // Within the per-instance bound, the product can still pass what one machine holds.
  if (config.totalKVBlocks !== undefined && config.totalKVBlocks <= RUN_LIMITS.maxKVBlocksPerInstance && config.numInstances <= RUN_LIMITS.maxInstances)
    issues.push(...totalBlockIssues(config.totalKVBlocks, 'flag', config.numInstances));
  return issues;
}

/** The model facts a derived KV block count came from, to say which block size would fit. */
export interface KVDerivation {
  model: string;
  gpu: string;
  tp: number;
  gpuMemoryUtilization: number;
  /** Bytes left for the KV cache on one GPU of the TP group, beside the weights and vLLM's reserves. */
  freeBytes: number;
  /** KV bytes one token takes on one GPU. */
  kvBytesPerToken: number;
}

/**
 * What the resolved KV block count per instance says: none fit (a block bigger than the memory
 * beside the weights and reserves), more than one instance may hold, or more than all instances may hold.
 * `source` is where the count came from (`flag` counts were checked with the config).
 */
export function kvBlockIssues(blocks: number, source: string, config: SimulationConfig, derivation: KVDerivation | undefined): RunLimitIssue[] {
  if (source === 'flag') return [];
  const bs = config.blockSizeTokens;
  if (blocks < 1) {
    const where = derivation === undefined ? 'the memory beside the weights' : describeDerivation(derivation);
    const most = derivation === undefined ? undefined : Math.floor(derivation.freeBytes / derivation.kvBytesPerToken);
    return [
      {
        path: ['blockSizeTokens'],
        expected: most !== undefined && most >= 1 ? `at most ${most} tokens per block (${where})` : `a block size for which one KV block fits ${where}`,
        found: `${bs} (0 KV blocks per instance)`,
      },
    ];
  }
  if (blocks > RUN_LIMITS.maxKVBlocksPerInstance) {
    const least = Math.ceil((blocks * bs) / RUN_LIMITS.maxKVBlocksPerInstance);
    return [
      {
        path: ['blockSizeTokens'],
        expected: `a block size giving at most ${RUN_LIMITS.maxKVBlocksPerInstance} KV blocks per instance (at least ${least} tokens per block; or set totalKVBlocks)`,
        found: `${bs} (${blocks} blocks per instance)`,
      },
    ];
  }
  return totalBlockIssues(blocks, source, config.numInstances);
}

function totalBlockIssues(blocks: number, source: string, instances: number): RunLimitIssue[] {
  const total = blocks * instances;
  if (total <= RUN_LIMITS.maxKVBlocksTotal) return [];
  const from = source === 'flag' ? '' : ` (${source === 'default' ? 'the default count without a model config' : 'derived from the model and GPU memory'})`;
  return [
    {
      path: source === 'flag' ? ['totalKVBlocks'] : ['numInstances'],
      expected: `at most ${RUN_LIMITS.maxKVBlocksTotal} KV blocks over all instances`,
      found: `${instances} instances × ${blocks} blocks${from} = ${total}`,
    },
  ];
}

function describeDerivation(d: KVDerivation): string {
  const gib = (d.freeBytes / 2 ** 30).toFixed(1);
  return `${d.gpu} × TP ${d.tp} at ${d.gpuMemoryUtilization} utilisation leaves ${gib} GiB per GPU beside the weights of ${d.model} and vLLM's reserves, ${d.kvBytesPerToken} bytes of KV per token per GPU`;
}
