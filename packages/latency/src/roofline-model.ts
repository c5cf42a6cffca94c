import { LatencyConfigError } from './errors.js';
import type { GpuSpec } from './hardware.js';
import type { LatencyModel, StepBatch } from './latency-model.js';
import type { ModelArchitecture } from './model-config.js';
import { type StepModelConfig, effectiveWeightBytesPerParam, layerSplit, peakTflops } from './step-model-config.js';

// BLIS counts two MLP matrices: Hugging Face's intermediate_size for gated (SwiGLU) models is
// already scaled so that 2·d·I matches the three gated matrices. KV sizing keeps three on purpose.
const MLP_MATRICES = 2;

/** FLOPs of one request's forward pass: matrix work (`gemm`) and on-chip vector work (`sram`). */
interface Flops {
  gemm: number;
  sram: number;
}

/**
 * BLIS's analytical roofline (HEAD f90a1e3a). The step is one forward pass over every request:
 *
 * - compute seconds = Σ over requests of FLOPs / TP / (peak · MFU), with the prefill MFU for
 *   prefilling requests and the decode MFU for decoding ones;
 * - memory seconds = (weight bytes once / TP + Σ per-request KV write, KV read of past tokens and
 *   activation bytes / TP) / bandwidth;
 * - step = max(compute, memory), truncated to whole µs, at least 1.
 *
 * Weights are attention (Q, K, V, O) and MLP matrices only: no embeddings or LM head. MoE
 * layers load the expected number of distinct experts the step's tokens touch,
 * `N·(1 − ((N − k)/N)^B)`. FP8 peak FLOPs apply when weights are one byte and the GPU has them.
 * Queueing delay is `alpha[0] + alpha[1]·input tokens` (zeros by default), per-output-token
 * time `alpha[2]`.
 */
export class RooflineLatencyModel implements LatencyModel {
  readonly kind = 'roofline';
  readonly decodeInputs = 'each';
  readonly model: ModelArchitecture;
  readonly gpu: GpuSpec;
  readonly tp: number;
  private readonly alpha: readonly [number, number, number];
  private readonly c: StepModelConfig;
  private readonly peakFlops: number;
  private readonly peakBandwidth: number;
  private readonly kvHeads: number;
  private readonly dHead: number;
  private readonly dFF: number;
  private readonly moeLayers: number;
  private readonly denseLayers: number;
  private readonly weightBpp: number;

  constructor(model: ModelArchitecture, gpu: GpuSpec, tp: number, alpha: readonly number[] = [0, 0, 0]) {
    const c = model.step;
    validateRoofline(c, gpu, tp);
    this.model = model;
    this.gpu = gpu;
    this.tp = tp;
    this.c = c;
    this.alpha = [alpha[0] ?? 0, alpha[1] ?? 0, alpha[2] ?? 0];
    this.weightBpp = effectiveWeightBytesPerParam(c);
    this.peakFlops = peakTflops(c, gpu) * 1e12;
    this.peakBandwidth = gpu.bandwidthTBs * 1e12;
    this.kvHeads = c.kvHeads === 0 ? c.heads : c.kvHeads;
    // Not the config's head_dim: BLIS's step time divides hidden by heads.
    this.dHead = c.hiddenSize / c.heads;
    this.dFF = c.intermediateSize > 0 ? c.intermediateSize : 4 * c.hiddenSize;
    const split = layerSplit(c);
    this.moeLayers = split.moeLayers;
    this.denseLayers = split.denseLayers;
  }

  private flops(seq: number, newT: number): Flops {
    const c = this.c;
    const d = c.hiddenSize;
    const L = c.layers;
    const nHeads = c.heads;
    const dKV = this.kvHeads * this.dHead;
    let gemm = (2 * newT * (d * d + 2 * d * dKV) + 2 * newT * d * d) * L;
    // New tokens of a chunk attend, on average, to the past plus half of the chunk.
    const effectiveCtx = newT > 1 ? seq + (newT - 1) / 2 : seq;
    gemm += 4 * nHeads * newT * effectiveCtx * this.dHead * L;
    // Softmax, masking and RoPE run on-chip but still cost compute time.
    const sram = (5 * nHeads * newT * effectiveCtx + 2 * newT * d) * L;
    if (this.moeLayers > 0) {
      const dFFMoE = c.moeExpertFfnDim > 0 ? c.moeExpertFfnDim : this.dFF;
      gemm += 2 * newT * (MLP_MATRICES * d * dFFMoE) * c.expertsPerToken * this.moeLayers;
    }
    if (this.denseLayers > 0) {
      const dFFDense = c.denseIntermediateSize > 0 ? c.denseIntermediateSize : this.dFF;
      gemm += 2 * newT * (MLP_MATRICES * d * dFFDense) * this.denseLayers;
    }
    return { gemm, sram };
  }

  /** Weight bytes for a pass over `newT` tokens (MoE layers load only the experts touched). */
  private weightBytes(newT: number): number {
    const c = this.c;
    const d = c.hiddenSize;
    const dKV = this.kvHeads * this.dHead;
    const attnPerLayer = d * (d + 2 * dKV) + d * d;
    let moe = 0;
    if (this.moeLayers > 0) {
      const dFFMoE = c.moeExpertFfnDim > 0 ? c.moeExpertFfnDim : this.dFF;
      const N = c.experts;
      const nEff = N * (1 - ((N - c.expertsPerToken) / N) ** newT);
      moe = MLP_MATRICES * d * dFFMoE * nEff * this.moeLayers;
    }
    let dense = 0;
    if (this.denseLayers > 0) {
      const dFFDense = c.denseIntermediateSize > 0 ? c.denseIntermediateSize : this.dFF;
      dense = MLP_MATRICES * d * dFFDense * this.denseLayers;
    }
    return (attnPerLayer * c.layers + (moe + dense)) * this.weightBpp;
  }

  /** Bytes one request adds beyond the weights: KV written, past KV read, activations. */
  private dynamicBytes(seq: number, newT: number): number {
    const c = this.c;
    const kvPerToken = 2 * c.layers * this.kvHeads * this.dHead * c.bytesPerParam;
    const weights = this.weightBytes(newT);
    const total = weights + kvPerToken * newT + kvPerToken * seq + c.layers * c.hiddenSize * c.bytesPerParam * newT;
    // BLIS subtracts the weights from the request's total, rounding included.
    return total - weights;
  }

  stepTime(batch: StepBatch): number {
    if (batch.prefillCount === 0 && batch.decodeCount === 0) return 1;
    const tp = this.tp;
    let computeS = 0;
    let dynamicBytes = 0;
    let newTokens = 0;
    const prefillRate = this.peakFlops * this.gpu.mfuPrefill;
    for (let i = 0; i < batch.prefillCount; i++) {
      const n = batch.prefillNewTokens[i];
      const seq = batch.prefillContextStart[i];
      const f = this.flops(seq, n);
      computeS += (f.gemm + f.sram) / tp / prefillRate;
      dynamicBytes += this.dynamicBytes(seq, n) / tp;
      newTokens += n;
    }
    const decodeRate = this.peakFlops * this.gpu.mfuDecode;
    for (let i = 0; i < batch.decodeCount; i++) {
      const seq = batch.decodeContext[i];
      const f = this.flops(seq, 1);
      computeS += (f.gemm + f.sram) / tp / decodeRate;
      dynamicBytes += this.dynamicBytes(seq, 1) / tp;
    }
    newTokens += batch.decodeCount;
    const memoryS = (this.weightBytes(newTokens) / tp + dynamicBytes) / this.peakBandwidth;
    return Math.max(1, Math.trunc(Math.max(computeS, memoryS) * 1e6));
  }

  queueingTime(inputTokens: number): number {
    return Math.trunc(this.alpha[0] + this.alpha[1] * inputTokens);
  }

  outputTokenTime(): number {
    return Math.trunc(this.alpha[2]);
  }

  postDecodeFixedOverhead(): number {
    return 0;
  }
}

function validateRoofline(c: StepModelConfig, gpu: GpuSpec, tp: number): void {
  const problems: string[] = [];
  if (!(Number.isInteger(tp) && tp > 0)) problems.push(`TP must be a positive integer, found ${tp}`);
  if (c.heads <= 0) problems.push(`num_attention_heads must be > 0, found ${c.heads}`);
  if (c.layers <= 0) problems.push(`num_hidden_layers must be > 0, found ${c.layers}`);
  if (c.hiddenSize <= 0) problems.push(`hidden_size must be > 0, found ${c.hiddenSize}`);
  if (!(c.bytesPerParam > 0)) problems.push('torch_dtype must name a known dtype (bytes per parameter > 0), found none');
  if (c.experts > 1 && c.expertsPerToken <= 0) problems.push(`an MoE model with ${c.experts} experts needs num_experts_per_tok > 0, found ${c.expertsPerToken}`);
  if (c.experts > 1 && c.expertsPerToken > c.experts) problems.push(`num_experts_per_tok (${c.expertsPerToken}) cannot exceed the ${c.experts} experts`);
  if (!(gpu.mfuPrefill > 0 && gpu.mfuDecode > 0)) problems.push(`GPU ${gpu.name} needs positive prefill and decode MFU`);
  if (problems.length > 0) throw new LatencyConfigError(`roofline: invalid model or hardware config: ${problems.join('; ')}`);
}
