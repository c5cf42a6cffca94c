import type { GpuSpec } from './hardware.js';
import type { LatencyModel, StepBatch } from './latency-model.js';
import { type ModelArchitecture, parameterCount } from './model-config.js';

/**
 * Analytical step time from FLOPs and bytes. For each phase (prefill, decode):
 * `time = max(FLOPs / (TP · peak · MFU), bytes / (TP · bandwidth))`, and the step is the sum
 * of the two phases, truncated to whole µs (at least 1).
 *
 * FLOPs per phase: projections (2·T·(q + 2kv + o)·H per layer), attention against the context
 * (4·heads·headDim per query-key pair), the MLP (2·T·3·H·I, or the active experts' share for
 * MoE) and the LM head for the tokens that produce logits. Bytes: the weights (the active
 * experts for MoE) once per phase, plus the KV cache read and written.
 */
export class RooflineLatencyModel implements LatencyModel {
  readonly kind = 'roofline';
  readonly model: ModelArchitecture;
  readonly gpu: GpuSpec;
  readonly tp: number;
  private readonly alpha: readonly [number, number, number];
  private readonly peakFlops: number;
  private readonly bandwidth: number;
  private readonly projFlopsPerToken: number;
  private readonly mlpFlopsPerToken: number;
  private readonly lmHeadFlops: number;
  private readonly attnFlopsPerPair: number;
  private readonly denseWeightBytes: number;
  private readonly expertBytes: number;
  private readonly kvBytesPerToken: number;

  constructor(model: ModelArchitecture, gpu: GpuSpec, tp: number, alpha: readonly number[] = [0, 0, 0]) {
    this.model = model;
    this.gpu = gpu;
    this.tp = tp;
    this.alpha = [alpha[0] ?? 0, alpha[1] ?? 0, alpha[2] ?? 0];
    const fp8 = model.dtypeBytes === 1 && gpu.tflopsFp8 > 0;
    this.peakFlops = (fp8 ? gpu.tflopsFp8 : gpu.tflopsPeak) * 1e12;
    this.bandwidth = gpu.bandwidthTBs * 1e12;
    const H = model.hiddenSize;
    const q = model.heads * model.headDim;
    const kv = model.kvHeads * model.headDim;
    this.projFlopsPerToken = 2 * model.layers * (H * q + 2 * H * kv + q * H);
    const activeMlp = model.experts > 0 ? model.expertsPerToken * 3 * H * model.moeIntermediateSize : 3 * H * model.intermediateSize;
    this.mlpFlopsPerToken = 2 * model.layers * activeMlp;
    this.lmHeadFlops = 2 * H * model.vocabSize;
    this.attnFlopsPerPair = 4 * model.layers * model.heads * model.headDim;
    const params = parameterCount(model);
    const expertParams = model.experts > 0 ? model.layers * model.experts * 3 * H * model.moeIntermediateSize : 0;
    this.denseWeightBytes = (params - expertParams) * model.dtypeBytes;
    this.expertBytes = model.experts > 0 ? model.layers * 3 * H * model.moeIntermediateSize * model.dtypeBytes : 0;
    this.kvBytesPerToken = 2 * model.layers * model.kvHeads * model.headDim * model.dtypeBytes;
  }

  /** Weight bytes read for `tokens` tokens: dense weights plus the experts they touch. */
  private weightBytes(tokens: number): number {
    if (this.model.experts === 0) return this.denseWeightBytes;
    const touched = Math.min(this.model.experts, tokens * this.model.expertsPerToken);
    return this.denseWeightBytes + touched * this.expertBytes;
  }

  private phaseSeconds(flops: number, bytes: number, mfu: number): number {
    const compute = flops / (this.tp * this.peakFlops * mfu);
    const memory = bytes / (this.tp * this.bandwidth);
    return Math.max(compute , memory);
  }

  stepTime(batch: StepBatch): number {
    let seconds = 0;
    if (batch.prefillCount > 0) {
      let flops = 0;
      let kvBytes = 0;
      let tokens = 0;
      for (let i = 0; i < batch.prefillCount; i++) {
        const n = batch.prefillNewTokens[i];
        const s = batch.prefillContextStart[i];
        tokens += n;
        // Each new token attends to the context before it and to the new tokens up to itself.
        flops += this.attnFlopsPerPair * (n * s + (n * (n + 1)) / 2);
        kvBytes += (s + n) * this.kvBytesPerToken;
      }
      flops += tokens * (this.projFlopsPerToken + this.mlpFlopsPerToken) + batch.prefillCount * this.lmHeadFlops;
      seconds += this.phaseSeconds(flops, this.weightBytes(tokens) + kvBytes, this.gpu.mfuPrefill);
    }
    if (batch.decodeCount > 0) {
      let flops = 0;
      let kvBytes = 0;
      for (let i = 0; i < batch.decodeCount; i++) {
        const c = batch.decodeContext[i] + 1;
        flops += this.attnFlopsPerPair * c;
        kvBytes += c * this.kvBytesPerToken;
      }
      const d = batch.decodeCount;
      flops += d * (this.projFlopsPerToken + this.mlpFlopsPerToken + this.lmHeadFlops);
      seconds += this.phaseSeconds(flops, this.weightBytes(d) + kvBytes, this.gpu.mfuDecode);
    }
    const us = Math.trunc(seconds * 1e6);
    return Math.max(us , 1);
  }

  queueingTime(inputTokens: number): number {
    return Math.trunc(this.alpha[0] + this.alpha[1] * inputTokens);
  }

  outputTokenTime(): number {
    return Math.trunc(this.alpha[2]);
  }
}
