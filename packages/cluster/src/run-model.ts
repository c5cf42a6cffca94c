import { describeKVCapacity, modelConfigRaw } from '@blis/latency/internal';
import type { KVTierConfig } from '@blis/kvcache';
import { LatencyConfigError, type LatencyModel, type ModelArchitecture, loadModelConfig, modelDefault, parseModelConfig } from '@blis/latency';
import type { SimulationConfig } from './config-schema.js';
import { resolveKVTiers } from './kv-tiers-config.js';
import { type KVDerivation, kvBlockIssues } from './limits/config-limits.js';
import { kvDerivationOf } from './limits/kv-derivation.js';
import { RunLimitError, type RunLimitIssue } from './limits/run-limit-error.js';
import { RUN_LIMITS } from './limits/run-limits.js';
import { resolveInstanceModel } from './resolve-instance-model.js';

/** What a run's instances are built from on the model's side: its latency model, KV cache size and tiers. */
export interface RunModel {
  latency: LatencyModel;
  /** The latency model's kind (`custom` for one handed in). */
  latencyKind: string;
  totalKVBlocks: number;
  /** Where the block count came from: `flag`, `default` or `derived`. */
  kvBlocksSource: string;
  /** How a derived count came about; absent otherwise. */
  kvBlocksDerivation: string | undefined;
  /** The model facts offload blocks are sized from, when they were read. */
  modelConfig: ModelArchitecture | undefined;
  tp: number;
  /** Whether the model was resolved from the catalogue or a config (its facts were then read). */
  modelResolved: boolean;
  /** The CPU tier or offload chain behind each GPU cache; absent = GPU only. */
  kvTiers: KVTierConfig | undefined;
}

/**
 * Resolves the latency model (unless one is `given`) and the KV cache's size and tiers, and
 * checks the cache's size limits: the block count, with the size issues found before
 * (`sizeIssues`, reported together), and the CPU tier's. Throws a {@link RunLimitError} or a
 * `LatencyConfigError`.
 */
export function resolveRunModel(config: SimulationConfig, given: LatencyModel | undefined, sizeIssues: readonly RunLimitIssue[]): RunModel {
  let latency = given;
  // A latency model handed in has no DP/EP terms to feed: asking for them would change nothing.
  if (latency !== undefined && (config.dp > 1 || config.enableExpertParallel || config.moeCommBackend !== undefined))
    throw new LatencyConfigError(`dp: expected dp 1 without enableExpertParallel or moeCommBackend beside a latency model given at run time (only the built-in trained-physics has data/expert-parallel terms), found dp ${config.dp}`);
  let latencyKind = latency?.kind ?? 'custom';
  let kvBlocks = config.totalKVBlocks;
  let kvSource = kvBlocks !== undefined ? 'flag' : 'default';
  // The model facts offload blocks are sized from, when the latency model was not resolved.
  let modelConfig: ModelArchitecture | undefined;
  let tp = config.tp ?? modelDefault(config.model)?.tp ?? 1;
  let modelResolved = false;
  let derivation: KVDerivation | undefined;
  let kvBlocksDerivation: string | undefined;
  if (latency === undefined || kvBlocks === undefined) {
    const { resolved, kv } = resolveInstanceModel(config);
    if (latency === undefined) {
      latency = resolved.model;
      latencyKind = resolved.kind;
    }
    kvBlocks = kv.blocks;
    kvSource = kv.source;
    modelConfig = resolved.modelConfig;
    tp = resolved.tp;
    modelResolved = true;
    if (kv.source === 'derived') {
      derivation = kvDerivationOf(resolved, kv.derivation);
      kvBlocksDerivation = describeKVCapacity(kv.derivation);
    }
  }
  const blockIssues = kvBlockIssues(kvBlocks, kvSource, config, derivation);
  if (blockIssues.length > 0 || sizeIssues.length > 0)
    throw new RunLimitError(blockIssues.some((i) => i.path[0] === 'blockSizeTokens') ? blockIssues : [...sizeIssues, ...blockIssues]);
  if (config.kvOffload !== undefined && config.kvOffload.perBlockBytes === undefined && !modelResolved) modelConfig = modelArchitecture(config);
  const kvTiers = resolveKVTiers(config, modelConfig, tp, config.blockSizeTokens);
  if (kvTiers?.kind === 'offload' && kvTiers.cpuBlocks > RUN_LIMITS.maxKVBlocksPerInstance)
    throw new RunLimitError([
      { path: ['kvOffload', 'cpuBytesToUse'], expected: `at most ${RUN_LIMITS.maxKVBlocksPerInstance} CPU KV blocks per instance`, found: `${kvTiers.cpuBytesToUse} bytes (${kvTiers.cpuBlocks} blocks of ${kvTiers.perBlockBytes} bytes)` },
    ]);
  return { latency, latencyKind, totalKVBlocks: kvBlocks, kvBlocksSource: kvSource, kvBlocksDerivation, modelConfig, tp, modelResolved, kvTiers };
}

/** The model's config.json as latency resolution would read it: `modelConfigPath`, else the catalogue's. */
export function modelArchitecture(config: SimulationConfig): ModelArchitecture | undefined {
  if (config.modelConfigPath !== undefined) return loadModelConfig(config.modelConfigPath);
  const raw = modelConfigRaw(config.model);
  return raw === undefined ? undefined : parseModelConfig(raw, `catalogue config of ${config.model}`);
}
