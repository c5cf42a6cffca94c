import { BlackboxLatencyModel } from './blackbox-model.js';
import { findCoefficients, knownModels, modelConfigRaw, modelDefault } from './catalogue.js';
import { LatencyConfigError } from './errors.js';
import { noCoefficientsHere, unknownVllmVersion } from './missing-coefficients.js';
import { type GpuSpec, hardwareSpec } from './hardware.js';
import type { LatencyModel } from './latency-model.js';
import { type ModelArchitecture, loadModelConfig, parseModelConfig } from './model-config.js';
import { type MoEParallelism, NO_MOE_PARALLELISM, checkMoEParallelism, checkMoEParallelismFor, usesMoEParallelism } from './moe/moe-parallelism.js';
import { RooflineLatencyModel } from './roofline-model.js';
import { weightBytesFromModelName } from './step-model-config.js';
import { TRAINED_PHYSICS_DEFAULTS } from './trained-physics/coefficients.js';
import { TrainedPhysicsLatencyModel } from './trained-physics/trained-physics-model.js';

/** The latency backends `resolveLatency` can build. */
export type LatencyModelKind = 'blackbox' | 'roofline' | 'trained-physics';

export interface ResolveLatencyOptions {
  model: string;
  hardware?: string;
  tp?: number;
  latencyModel?: LatencyModelKind;
  alphaCoeffs?: readonly number[];
  betaCoeffs?: readonly number[];
  vllmVersion?: string;
  modelConfigPath?: string;
  hardwareConfigPath?: string;
  /** Data/expert parallelism of an MoE instance (trained-physics only); absent: DP 1, EP off. */
  parallelism?: MoEParallelism;
  /**
   * The trained-physics coefficients to use when `alphaCoeffs` / `betaCoeffs` do not give them
   * (a BLIS defaults.yaml's `trained_physics_coefficients`); absent: BLIS f90a1e3a's.
   */
  trainedPhysicsDefaults?: { alpha?: readonly number[]; beta?: readonly number[]; source: string };
}

export interface ResolvedLatency {
  model: LatencyModel;
  kind: LatencyModelKind;
  modelId: string;
  gpu: string;
  tp: number;
  /** Data-parallel ranks per instance (1 unless an MoE model under trained-physics asks for more). */
  dp: number;
  vllmVersion?: string;
  alpha: readonly number[];
  beta?: readonly number[];
  modelConfig?: ModelArchitecture;
  hardware?: GpuSpec;
  /** Where the numbers came from, for logs. */
  source: string;
}

/**
 * Picks the latency model for a deployment: `--model` alone uses the model's default GPU and
 * TP. Without `latencyModel`, the default follows BLIS HEAD: trained-physics whenever a model
 * config and the GPU are known; blackbox when the caller gives blackbox-shaped coefficients (3
 * betas) or a vLLM version, or when only trained coefficients exist for (model, GPU, TP);
 * otherwise an error listing the known models. trained-physics takes BLIS's shipped coefficients
 * unless `alphaCoeffs` / `betaCoeffs` override them.
 */
export function resolveLatency(opts: ResolveLatencyOptions): ResolvedLatency {
  const parallelism = opts.parallelism ?? NO_MOE_PARALLELISM;
  checkMoEParallelism(parallelism);
  const resolved = resolveBackend(opts, parallelism);
  // The model and backend are known only now: DP/EP need an MoE model under trained-physics.
  if (usesMoEParallelism(parallelism)) checkMoEParallelismFor(parallelism, resolved.kind, opts.model, resolved.modelConfig?.step.experts ?? 0, opts.latencyModel !== undefined);
  return resolved;
}

/**
 * The catalogue's configs never change, so each is parsed once per process (a policy search
 * resolves the same model for every scenario of every request) and shared, frozen.
 */
const catalogueArchitectures = new WeakMap<object, ModelArchitecture>();

function catalogueArchitecture(raw: unknown, model: string): ModelArchitecture {
  if (raw === null || typeof raw !== 'object') return parseModelConfig(raw, `catalogue config of ${model}`);
  let arch = catalogueArchitectures.get(raw);
  if (arch === undefined) {
    arch = deepFreeze(parseModelConfig(raw, `catalogue config of ${model}`));
    catalogueArchitectures.set(raw, arch);
  }
  return arch;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function resolveBackend(opts: ResolveLatencyOptions, parallelism: MoEParallelism): ResolvedLatency {
  const def = modelDefault(opts.model);
  const gpu = opts.hardware ?? def?.gpu ?? 'H100';
  const tp = opts.tp ?? def?.tp ?? 1;
  let modelConfig: ModelArchitecture | undefined;
  if (opts.modelConfigPath !== undefined) modelConfig = loadModelConfig(opts.modelConfigPath);
  else {
    const raw = modelConfigRaw(opts.model);
    if (raw !== undefined) modelConfig = catalogueArchitecture(raw, opts.model);
  }
  // BLIS falls back to the model name (…-FP8, …-w4a16) when the config states no quantization.
  if (modelConfig !== undefined && modelConfig.step.quantizedWeightBytesPerParam === 0) {
    const fromName = weightBytesFromModelName(opts.model);
    if (fromName > 0) modelConfig = { ...modelConfig, step: { ...modelConfig.step, quantizedWeightBytesPerParam: fromName } };
  }
  let hardware: GpuSpec | undefined;
  const needHardware = () => {
    hardware ??= hardwareSpec(gpu, opts.hardwareConfigPath);
    return hardware;
  };
  try {
    hardware = hardwareSpec(gpu, opts.hardwareConfigPath);
  } catch (e) {
    if (opts.hardware !== undefined || opts.hardwareConfigPath !== undefined) throw e;
  }

  const kind = opts.latencyModel ?? defaultKind(opts, modelConfig !== undefined && hardware !== undefined);
  if (kind === 'trained-physics') {
    if (modelConfig === undefined) throw new LatencyConfigError(`--model-config: expected a Hugging Face config.json for ${opts.model} (trained-physics needs one and the catalogue has none), found nothing`);
    checkMoEParallelismFor(parallelism, kind, opts.model, modelConfig.step.experts);
    const hw = needHardware();
    const trained = opts.trainedPhysicsDefaults ?? { ...TRAINED_PHYSICS_DEFAULTS, source: 'BLIS f90a1e3a defaults' };
    const alpha = opts.alphaCoeffs ?? trained.alpha;
    const beta = opts.betaCoeffs ?? trained.beta;
    // A defaults file without the section leaves nothing to fall back on, as in BLIS.
    if (alpha === undefined || beta === undefined)
      throw new LatencyConfigError(`${trained.source}: expected trained_physics_coefficients for the trained-physics latency model (or --alpha-coeffs and --beta-coeffs), found none`);
    const source = opts.alphaCoeffs !== undefined || opts.betaCoeffs !== undefined ? 'coefficients from flags' : trained.source;
    return {
      model: new TrainedPhysicsLatencyModel(modelConfig, hw, tp, alpha, beta, parallelism),
      kind: 'trained-physics',
      modelId: opts.model,
      gpu: hw.name,
      tp,
      dp: parallelism.dp,
      alpha,
      beta,
      modelConfig,
      hardware: hw,
      source: `trained-physics (${source}) from ${opts.modelConfigPath ?? 'catalogue config'} on ${hw.name} TP${tp}${describeParallelism(parallelism)}`,
    };
  }
  if (kind !== 'roofline') {
    if (opts.betaCoeffs !== undefined && opts.betaCoeffs.length !== 3)
      throw new LatencyConfigError(`--beta-coeffs: expected 3 blackbox coefficients (or 7 to 11 with --latency-model trained-physics), found ${opts.betaCoeffs.length}`);
    if (opts.alphaCoeffs !== undefined && opts.betaCoeffs !== undefined) {
      return { model: new BlackboxLatencyModel(opts.alphaCoeffs, opts.betaCoeffs), kind: 'blackbox', modelId: opts.model, gpu, tp, dp: 1, alpha: opts.alphaCoeffs, beta: opts.betaCoeffs, modelConfig, hardware, source: 'coefficients from flags' };
    }
    const entry = findCoefficients(opts.model, gpu, tp, opts.vllmVersion);
    if (entry !== undefined) {
      const alpha = opts.alphaCoeffs ?? entry.alpha;
      const beta = opts.betaCoeffs ?? entry.beta;
      return { model: new BlackboxLatencyModel(alpha, beta), kind: 'blackbox', modelId: entry.id, gpu: entry.gpu, tp, dp: 1, vllmVersion: entry.vllmVersion, alpha, beta, modelConfig, hardware, source: `trained coefficients ${entry.id} ${entry.gpu} TP${entry.tp} ${entry.vllmVersion}` };
    }
    // A version the catalogue lacks must not quietly become another backend.
    if (opts.vllmVersion !== undefined && !(opts.alphaCoeffs !== undefined && opts.betaCoeffs !== undefined)) throw unknownVllmVersion(opts.model, gpu, tp, opts.vllmVersion);
    if (opts.latencyModel === 'blackbox')
      throw new LatencyConfigError(`no blackbox coefficients for ${opts.model} on ${gpu} TP ${tp}${opts.vllmVersion ? ` (${opts.vllmVersion})` : ''}; pass --alpha-coeffs and --beta-coeffs, or use --latency-model roofline`);
  }
  if (modelConfig !== undefined) {
    const hw = needHardware();
    const alpha = opts.alphaCoeffs ?? [0, 0, 0];
    return { model: new RooflineLatencyModel(modelConfig, hw, tp, alpha), kind: 'roofline', modelId: opts.model, gpu: hw.name, tp, dp: 1, alpha, modelConfig, hardware: hw, source: `roofline from ${opts.modelConfigPath ?? 'catalogue config'} on ${hw.name} TP${tp}` };
  }
  if (opts.latencyModel === 'roofline')
    throw new LatencyConfigError(`--model-config: expected a Hugging Face config.json for ${opts.model} (roofline needs one and the catalogue has none), found nothing`);
  throw noCoefficientsHere(opts.model, gpu, tp, opts.hardware !== undefined) ?? new LatencyConfigError(`unknown model "${opts.model}"; known models: ${knownModels().join(', ')}`);
}

/**
 * BLIS HEAD's default backend is trained-physics; blackbox stays the default where the caller
 * asks for blackbox data (3-beta coefficients, a vLLM image's trained entry) or nothing else
 * is known about the model.
 */
function defaultKind(opts: ResolveLatencyOptions, physicsPossible: boolean): LatencyModelKind {
  if (opts.betaCoeffs?.length === 3 || opts.vllmVersion !== undefined || !physicsPossible) return 'blackbox';
  return 'trained-physics';
}

/** ` DP2 EP allgather_reducescatter` for the source line; empty at DP 1 without EP. */
function describeParallelism(p: MoEParallelism): string {
  if (!usesMoEParallelism(p)) return '';
  return `${p.dp > 1 ? ` DP${p.dp}` : ''}${p.enableExpertParallel ? ' EP' : ''}${p.dp > 1 ? ` ${p.moeCommBackend ?? 'allgather_reducescatter'}` : ''}`;
}
