import { offloadPerBlockBytes, resolveOffloadChain } from '@blis/cluster/internal';
import { type KVOffloadConfig, type KVOffloadDeviceClasses, KVTierConfigError, type SimulationConfigInput } from '@blis/cluster';
import { loadKVOffloadFile } from '../inputs/kv-offload-file.js';
import { DEFAULT_MODEL, architectureFor, tpFor } from './model-architecture.js';
import { replayKVOffload } from './replay-kv-offload.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';
import { usageIssueOf, whereText } from '../inputs/yaml-file.js';

type KVTierFields = Pick<SimulationConfigInput, 'kvCpuBlocks' | 'kvTransferBandwidth' | 'kvTransferBaseLatencyUs' | 'kvOffloadThreshold' | 'kvReloadRecompute' | 'kvOffload'>;

/**
 * The KV tier part of the config from the flags (`f`, validated, camelCase): the CPU tier
 * numbers, and the offload chain from --kv-offload-config or, on replay, the trace header.
 * Problems go to `issues`, named by flag or by file, key and line; `modelReadable` is false
 * when --model-config cannot be read (that is reported elsewhere). `devices`: the device classes
 * of a --defaults-filepath file, in place of the shipped ones.
 */
export function kvTierFields(f: Record<string, unknown>, workload: SimulationConfigInput['workload'], modelReadable: boolean, issues: UsageIssue[], devices?: KVOffloadDeviceClasses): KVTierFields {
  const kvCpuBlocks = (f.kvCpuBlocks as number | undefined) ?? 0;
  const blockSizeTokens = (f.blockSizeInTokens as number | undefined) ?? 16;
  let offload: KVOffloadConfig | undefined;
  let fileOk = true;
  if (typeof f.kvOffloadConfig === 'string') {
    try {
      offload = loadKVOffloadFile(f.kvOffloadConfig, blockSizeTokens, devices);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      issues.push(...e.issues);
      fileOk = false;
    }
    if (kvCpuBlocks > 0)
      issues.push({
        where: '--kv-offload-config',
        expected: 'no --kv-cpu-blocks beside it (the legacy CPU tier and the offload chain are distinct models; set only one)',
        found: `--kv-cpu-blocks ${kvCpuBlocks}`,
      });
  }
  if (workload?.kind === 'trace' && fileOk) offload = replayKVOffload(workload, offload, blockSizeTokens, kvCpuBlocks, issues);
  if (offload !== undefined && issues.length === 0 && modelReadable) checkSizing(f, offload, blockSizeTokens, issues);
  // BLIS warns whenever the threshold is non-zero; only an explicit one under tiers is worth a line.
  if (f.kvOffloadThreshold !== undefined && (kvCpuBlocks > 0 || offload !== undefined) && f.quiet !== true)
    process.stderr.write('blis: warning: --kv-offload-threshold is deprecated and ignored, as in BLIS (the CPU tier mirrors every full block; no threshold applies)\n');
  return {
    kvCpuBlocks: f.kvCpuBlocks as number | undefined,
    kvTransferBandwidth: f.kvTransferBandwidth as number | undefined,
    kvTransferBaseLatencyUs: f.kvTransferBaseLatency as number | undefined,
    kvOffloadThreshold: f.kvOffloadThreshold as number | undefined,
    kvReloadRecompute: f.kvReloadRecompute === true ? true : undefined,
    kvOffload: offload?.input,
  };
}

/**
 * Sizes the chain now, as the simulation will, so that a model without a config.json or a CPU
 * budget under one block is reported against the file's line before the run.
 */
function checkSizing(f: Record<string, unknown>, offload: KVOffloadConfig, blockSizeTokens: number, issues: UsageIssue[]): void {
  try {
    sizeOffloadChain(offload, (f.model as string | undefined) ?? DEFAULT_MODEL, f.modelConfig as string | undefined, f.tp as number | undefined, blockSizeTokens);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    issues.push(...e.issues);
  }
}

/**
 * The resolved offload chain of `offload` for `model` (its config from `modelConfigPath` or the
 * catalogue) at TP `tp` (default: the model's): the simulation's sizing, with its problems as a
 * UsageError naming the file and line.
 */
export function sizeOffloadChain(offload: KVOffloadConfig, model: string, modelConfigPath: string | undefined, tp: number | undefined, blockSizeTokens: number): ReturnType<typeof resolveOffloadChain> {
  try {
    const perBlockBytes = offload.settings.perBlockBytes ?? offloadPerBlockBytes(architectureFor(model, modelConfigPath), tpFor(model, tp), blockSizeTokens);
    return resolveOffloadChain(offload.settings, perBlockBytes, blockSizeTokens, false);
  } catch (e) {
    if (!(e instanceof KVTierConfigError)) throw e;
    if (e.path.length > 1) throw new UsageError([usageIssueOf(offload.issueOf(e))]);
    throw new UsageError([{ where: whereText(offload.locate([])), expected: `${e.expected} for ${modelConfigPath ?? model} (give --model-config)`, found: e.found }]);
  }
}
