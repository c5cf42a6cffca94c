import { LatencyConfigError } from '../errors.js';
import type { GpuSpec } from '../hardware.js';
import { moeCommFamily } from '../moe/comm-backends.js';
import type { DispatchShape } from '../moe/dispatch-basis.js';
import { balancedExpertLoad } from '../moe/expert-placement.js';
import { type MoEParallelism, NO_MOE_PARALLELISM, checkMoEParallelism, effectiveCommBackend } from '../moe/moe-parallelism.js';
import { type StepModelConfig, effectiveWeightBytesPerParam, isMoE, layerSplit, peakTflops } from '../step-model-config.js';

/** The per-deployment constants the trained-physics step formula reads, fixed at construction. */
export interface TrainedPhysicsArchitecture {
  layers: number;
  moeLayers: number;
  denseLayers: number;
  hiddenSize: number;
  heads: number;
  /** hidden / heads, as an integer (BLIS's integer division). */
  headDim: number;
  /** KV heads × headDim. */
  dKV: number;
  dFFMoE: number;
  dFFDense: number;
  /** Active experts per token, at least 1. */
  kEff: number;
  experts: number;
  moe: boolean;
  /** Interleaved MoE (Scout-style): the per-MoE-layer overhead beta[7] applies. */
  interleaved: boolean;
  sharedExpertFfnDim: number;
  tp: number;
  /** Data-parallel ranks of the instance (1 for dense models): each computes 1/dp of the step's tokens. */
  dp: number;
  /** Devices routed experts are sharded over: TP·DP for MoE, TP for dense models. */
  moeGroup: number;
  /** Whole-expert equivalents resident per GPU (the balanced placement's expertCount). */
  expertsPerGpu: number;
  /** What the MoE dispatch/combine at DP > 1 moves, and over which group. */
  dispatch: DispatchShape;
  weightBytesPerParam: number;
  /** Compute dtype width: sizes activations moved by TP all-reduce. */
  activationBytesPerParam: number;
  /** Raw peak FLOP per µs (FP8 peak for 1-byte weights on GPUs that have it). */
  flopsPerUs: number;
  /** Raw HBM bytes per µs. */
  bytesPerUs: number;
}

/** Checks a model and GPU for the trained-physics formula and derives its constants. */
export function trainedPhysicsArchitecture(c: StepModelConfig, gpu: GpuSpec, tp: number, parallelism: MoEParallelism = NO_MOE_PARALLELISM): TrainedPhysicsArchitecture {
  const bad = (what: string) => {
    throw new LatencyConfigError(`trained-physics: ${what}`);
  };
  if (!(Number.isInteger(tp) && tp > 0)) bad(`TP must be a positive integer, found ${tp}`);
  if (c.layers <= 0) bad(`num_hidden_layers must be > 0, found ${c.layers}`);
  if (c.heads <= 0) bad(`num_attention_heads must be > 0, found ${c.heads}`);
  if (c.hiddenSize <= 0) bad(`hidden_size must be > 0, found ${c.hiddenSize}`);
  if (c.intermediateSize <= 0) bad(`intermediate_size (or ffn_hidden_size) must be > 0, found ${c.intermediateSize}`);
  if (c.heads % tp !== 0) bad(`num_attention_heads (${c.heads}) must be divisible by TP (${tp})`);
  const kvHeads = c.kvHeads === 0 ? c.heads : c.kvHeads;
  if (kvHeads % tp !== 0) bad(`KV heads (${kvHeads}) must be divisible by TP (${tp})`);
  if (!(gpu.tflopsPeak > 0 && Number.isFinite(gpu.tflopsPeak))) bad(`GPU ${gpu.name} needs a positive TFlopsPeak`);
  if (!(gpu.bandwidthTBs > 0 && Number.isFinite(gpu.bandwidthTBs))) bad(`GPU ${gpu.name} needs a positive BwPeakTBs`);
  if (!(c.bytesPerParam > 0)) bad('torch_dtype must name a known dtype (bytes per parameter > 0), found none');
  if (c.experts > 1 && c.expertsPerToken <= 0) bad(`an MoE model with ${c.experts} experts needs num_experts_per_tok > 0, found ${c.expertsPerToken}`);

  const headDim = Math.trunc(c.hiddenSize / c.heads);
  const { moeLayers, denseLayers } = layerSplit(c);
  const moe = isMoE(c);
  checkMoEParallelism(parallelism);
  if (!moe && (parallelism.dp > 1 || parallelism.enableExpertParallel))
    bad(`${parallelism.dp > 1 ? '--dp > 1' : '--enable-expert-parallel'} needs a mixture-of-experts model (at least 2 routed experts), found ${c.experts} experts`);
  const dp = parallelism.dp;
  const weightBytesPerParam = effectiveWeightBytesPerParam(c);
  const tflops = peakTflops(c, gpu);
  const moeGroup = moe ? tp * dp : tp;
  const kEff = Math.max(1, c.expertsPerToken);
  const bytesPerUs = gpu.bandwidthTBs * 1e6;
  return {
    layers: c.layers,
    moeLayers,
    denseLayers,
    hiddenSize: c.hiddenSize,
    heads: c.heads,
    headDim,
    dKV: kvHeads * headDim,
    dFFMoE: c.moeExpertFfnDim > 0 ? c.moeExpertFfnDim : c.intermediateSize,
    dFFDense: c.denseIntermediateSize > 0 ? c.denseIntermediateSize : c.intermediateSize,
    kEff,
    experts: c.experts,
    moe,
    interleaved: c.interleaveMoeLayerStep > 0 && moe,
    sharedExpertFfnDim: c.sharedExpertFfnDim,
    tp,
    dp,
    moeGroup,
    expertsPerGpu: balancedExpertLoad(0, kEff, c.experts, moeGroup, dp).expertCount,
    dispatch: {
      family: moeCommFamily(effectiveCommBackend(parallelism)),
      hiddenSize: c.hiddenSize,
      activationBytes: c.bytesPerParam,
      k: kEff,
      experts: c.experts,
      group: moeGroup,
      dp,
      bytesPerUs,
    },
    weightBytesPerParam,
    activationBytesPerParam: c.bytesPerParam,
    flopsPerUs: tflops * 1e6,
    bytesPerUs,
  };
}
