import { describeFound } from '@blis/policies/internal';
import type { SimulationConfigInput } from '@blis/cluster';
import { knownHardware } from '@blis/latency';
import { latencyKnownModels, latencyResolvesModel } from './catalogue.js';
import type { DefaultsFileFields } from './defaults-apply.js';
import { checkReadableFile } from '../inputs/input-files.js';
import { DEFAULT_MODEL, architectureFor } from './model-architecture.js';
import type { MoEFlagFields } from './moe-flags.js';
import type { UsageIssue } from '../errors/usage-error.js';

// One instance's model, GPU, parallelism, latency model and engine limits: the flags checked
// against each other and the catalogue, then as the config's instance fields.

/**
 * The model, hardware, TP and latency-coefficient flags (`f`, completed by the defaults file
 * `defaults`) checked; problems go to `issues`. Returns the file flags that cannot be read
 * (`--model-config`, `--hardware-config`): what needs them is not checked further.
 */
export function instanceIssues(f: Record<string, unknown>, defaults: DefaultsFileFields, issues: UsageIssue[]): Set<string> {
  if (typeof f.model === 'string' && f.alphaCoeffs === undefined && f.betaCoeffs === undefined && f.modelConfig === undefined) {
    const known = latencyKnownModels();
    if (!known.some((m) => m.toLowerCase() === (f.model as string).toLowerCase()) && !latencyResolvesModel(f.model as string))
      issues.push({ where: '--model', expected: `a known model (${known.join(', ')})`, found: describeFound(f.model) });
  }
  const files: [string, unknown, string, boolean][] = [
    ['--model-config', f.modelConfig, 'model config (config.json or its folder)', true],
    ['--hardware-config', f.hardwareConfig, 'hardware_config.json', false],
  ];
  const unreadable = new Set<string>();
  for (const [flag, path, what, dirOk] of files) {
    if (typeof path !== 'string') continue;
    const issue = checkReadableFile(flag, path, what, dirOk);
    if (issue !== undefined) {
      issues.push(issue);
      unreadable.add(flag);
    }
  }
  for (const [flag, hardware] of [['--hardware', f.hardware], ['--prefill-hardware', f.prefillHardware], ['--decode-hardware', f.decodeHardware]] as const) {
    if (typeof hardware !== 'string' || f.hardwareConfig !== undefined) continue;
    const gpus = knownHardware();
    if (!gpus.some((g) => g.toLowerCase() === (hardware as string).toLowerCase()))
      issues.push({ where: (flag === '--hardware' ? defaults.from.hardware : undefined) ?? flag, expected: `one of ${gpus.join(', ')} (or a GPU from --hardware-config)`, found: describeFound(hardware) });
  }
  // --prefill-tp / --decode-tp 0 mean --tp (BLIS's default).
  for (const [flag, tp] of [['--tp', f.tp], ['--prefill-tp', f.prefillTp], ['--decode-tp', f.decodeTp]] as const) {
    if (typeof tp !== 'number' || tp === 0 || unreadable.has('--model-config')) continue;
    // vLLM shards attention heads across GPUs: it refuses a TP that does not divide them.
    const model = (f.model as string | undefined) ?? DEFAULT_MODEL;
    const arch = architectureFor(model, f.modelConfig as string | undefined);
    if (arch !== undefined && arch.heads % tp !== 0) {
      const divisors = Array.from({ length: arch.heads }, (_, i) => i + 1).filter((d) => arch.heads % d === 0);
      issues.push({
        where: (flag === '--tp' ? defaults.from.tp : undefined) ?? flag,
        expected: `a divisor of the ${arch.heads} attention heads of ${f.modelConfig ?? model} (${divisors.join(', ')})`,
        found: String(tp),
      });
    }
  }
  if ((f.alphaCoeffs === undefined) !== (f.betaCoeffs === undefined) && f.latencyModel !== 'roofline' && f.latencyModel !== 'trained-physics' && f.model === undefined) {
    // Both or neither without a model: a half-specified blackbox model cannot be completed.
    const [missing, given] = f.alphaCoeffs === undefined ? ['--alpha-coeffs', '--beta-coeffs'] : ['--beta-coeffs', '--alpha-coeffs'];
    issues.push({ where: missing, expected: `to be given with ${given} (or --model, whose trained coefficients fill in the other)`, found: `only ${given}` });
  }
  checkCoefficientFlags(f.latencyModel as string | undefined, f.alphaCoeffs as number[] | undefined, f.betaCoeffs as number[] | undefined, issues);
  // A vLLM version picks a row of blackbox coefficients: beside another model it would do nothing.
  if (f.vllmVersion !== undefined && (f.latencyModel === 'roofline' || f.latencyModel === 'trained-physics'))
    issues.push({ where: '--vllm-version', expected: `no --vllm-version with --latency-model ${f.latencyModel} (a vLLM version picks blackbox coefficients)`, found: describeFound(f.vllmVersion) });
  return unreadable;
}

/** Coefficient counts and signs depend on the latency model: trained-physics takes 7 to 11 betas, all ≥ 0. */
function checkCoefficientFlags(latencyModel: string | undefined, alpha: number[] | undefined, beta: number[] | undefined, issues: UsageIssue[]): void {
  if (latencyModel === 'trained-physics') {
    for (const [flag, values] of [['--alpha-coeffs', alpha], ['--beta-coeffs', beta]] as const) {
      const bad = values?.find((v) => v < 0);
      if (bad !== undefined) issues.push({ where: flag, expected: 'non-negative trained-physics coefficients', found: String(bad) });
    }
    if (beta !== undefined && (beta.length < 7 || beta.length > 11))
      issues.push({ where: '--beta-coeffs', expected: '7 to 11 comma-separated numbers for --latency-model trained-physics', found: `${beta.length} numbers` });
    return;
  }
  if (beta !== undefined && beta.length !== 3)
    issues.push({ where: '--beta-coeffs', expected: `three comma-separated numbers (e.g. "1000,2.5,0")${latencyModel === undefined ? ', or 7 to 11 with --latency-model trained-physics' : ''}`, found: `${beta.length} numbers` });
}

type InstanceFields = Pick<
  SimulationConfigInput,
  | 'seed'
  | 'horizonUs'
  | 'numInstances'
  | 'model'
  | 'hardware'
  | 'tp'
  | 'latencyModel'
  | 'alphaCoeffs'
  | 'betaCoeffs'
  | 'vllmVersion'
  | 'trainedPhysicsCoefficients'
  | 'modelConfigPath'
  | 'hardwareConfigPath'
  | 'totalKVBlocks'
  | 'gpuMemoryUtilization'
  | 'blockSizeTokens'
  | 'maxNumSeqs'
  | 'maxNumBatchedTokens'
  | 'longPrefillTokenThreshold'
  | 'prefixHitPrefillStart'
  | 'maxModelLen'
> &
  MoEFlagFields;

/**
 * The run's seed and horizon and one instance's fields from the flags (`f`, checked): the
 * instance count (`--num-instances`, else the P/D pools' `pdInstances`), model, GPU, TP, the
 * DP/EP fields `moe`, the latency model (the defaults file's trained-physics coefficients
 * among them) and the engine's KV and batch limits.
 */
export function instanceFields(f: Record<string, never>, pdInstances: number | undefined, moe: MoEFlagFields, defaults: DefaultsFileFields): InstanceFields {
  return {
    seed: f.seed,
    horizonUs: f.horizon,
    numInstances: f.numInstances ?? pdInstances,
    model: f.model,
    hardware: f.hardware,
    tp: f.tp,
    ...moe,
    latencyModel: f.latencyModel,
    alphaCoeffs: f.alphaCoeffs,
    betaCoeffs: f.betaCoeffs,
    vllmVersion: f.vllmVersion,
    ...(defaults.trainedPhysicsCoefficients !== undefined ? { trainedPhysicsCoefficients: defaults.trainedPhysicsCoefficients } : {}),
    modelConfigPath: f.modelConfig,
    hardwareConfigPath: f.hardwareConfig,
    totalKVBlocks: f.totalKvBlocks,
    gpuMemoryUtilization: f.gpuMemoryUtilization,
    blockSizeTokens: f.blockSizeInTokens,
    maxNumSeqs: f.maxNumSeqs,
    maxNumBatchedTokens: f.maxNumBatchedTokens,
    longPrefillTokenThreshold: f.longPrefillTokenThreshold,
    prefixHitPrefillStart: f.prefixHitPrefillStart as 'cached' | 'zero' | undefined,
    maxModelLen: f.maxModelLen,
  };
}
