import type { StepBatch } from '../latency-model.js';
import { dispatchLayerBasis } from '../moe/dispatch-basis.js';
import type { TrainedPhysicsArchitecture } from './architecture.js';

/** KV cache elements are fp16/bf16 whatever the weights' precision (vLLM's default). */
const KV_ELEMENT_BYTES = 2;

/** A step's basis times in µs (before coefficients), and its request count. */
export interface StepBases {
  /** Prefill FLOPs: projections, attention over the whole prompt, FFN. */
  pfCompute: number;
  /** Prefill KV writes. */
  pfKv: number;
  /** Decode FLOPs: projections, attention over the context, FFN. */
  dcCompute: number;
  /** Decode KV reads of the context plus the new token's write. */
  dcKv: number;
  /** Weight loading, once per step. */
  weight: number;
  /** TP all-reduce: attention and dense FFN per layer, plus MoE FFN at DP = 1. */
  tpComm: number;
  /** MoE dispatch/combine between the DP ranks (MoE models at DP > 1 only; else 0). */
  moeDispatch: number;
  /** Requests in the step (prefilling plus decoding). */
  requests: number;
}

/** Ring all-reduce of `units` hidden-state tensors over `tokens` tokens; 0 without TP. */
function allReduce(a: TrainedPhysicsArchitecture, units: number, tokens: number): number {
  if (a.tp <= 1) return 0;
  // Two ring phases (reduce-scatter, all-gather), each moving (tp − 1)/tp of the data.
  return (units * tokens * a.hiddenSize * a.activationBytesPerParam * 2 * ((a.tp - 1) / a.tp)) / a.bytesPerUs;
}

/** FFN FLOPs for `tokens` tokens: routed experts (balanced over the MoE group), shared experts, dense layers. */
function ffnFlops(a: TrainedPhysicsArchitecture, tokens: number, tpdp: number): number {
  const d = a.hiddenSize;
  let flops = 0;
  if (a.moeLayers > 0) {
    // The busiest device computes its even share of the routed token·expert pairs: the balanced
    // placement's computeTokens, written out so the hot path allocates nothing.
    const perDeviceTokens = (tokens * a.kEff) / a.moeGroup;
    flops += a.moeLayers * perDeviceTokens * 6 * d * a.dFFMoE;
    if (a.sharedExpertFfnDim !== 0) flops += (a.moeLayers * tokens * 6 * d * a.sharedExpertFfnDim) / tpdp;
  }
  if (a.denseLayers > 0) flops += (a.denseLayers * tokens * 1 * 6 * d * a.dFFDense) / tpdp;
  return flops;
}

/**
 * Fills `out` with the basis times of `batch`. Prefill attention uses each request's whole prompt
 * length (not where the chunk starts); decode attention its context length.
 */
export function stepBases(a: TrainedPhysicsArchitecture, batch: StepBatch, out: StepBases): StepBases {
  const L = a.layers;
  const d = a.hiddenSize;
  const dKV = a.dKV;
  const dH = a.headDim;
  const tp = a.tp;
  const dp = a.dp;
  const tpdp = tp * dp;
  const headsPerDevice = a.heads / tp;

  let prefillTokens = 0;
  let prefillAttn = 0;
  for (let i = 0; i < batch.prefillCount; i++) {
    const ti = batch.prefillNewTokens[i];
    const si = batch.prefillInputTokens[i];
    prefillTokens += ti;
    prefillAttn += 4 * headsPerDevice * ti * (si + ti / 2) * dH;
  }
  const decodeTokens = batch.decodeCount;
  let sumCtx = batch.decodeContextSum ?? -1;
  if (sumCtx < 0) {
    sumCtx = 0;
    for (let i = 0; i < decodeTokens; i++) sumCtx += batch.decodeContext[i];
  }

  out.pfCompute = 0;
  out.pfKv = 0;
  if (prefillTokens > 0) {
    const proj = (L * 2 * prefillTokens * d * (2 * d + 2 * dKV)) / tpdp;
    const attn = (L * prefillAttn) / dp;
    out.pfCompute = (proj + attn + ffnFlops(a, prefillTokens, tpdp)) / a.flopsPerUs;
    out.pfKv = (L * 2 * (dKV / tpdp) * prefillTokens * KV_ELEMENT_BYTES) / a.bytesPerUs;
  }
  out.dcCompute = 0;
  out.dcKv = 0;
  if (decodeTokens > 0) {
    const proj = (L * 2 * decodeTokens * d * (2 * d + 2 * dKV)) / tpdp;
    const attn = (L * 4 * headsPerDevice * sumCtx * dH) / dp;
    out.dcCompute = (proj + attn + ffnFlops(a, decodeTokens, tpdp)) / a.flopsPerUs;
    out.dcKv = (L * 2 * (dKV / tpdp) * KV_ELEMENT_BYTES * (sumCtx + decodeTokens)) / a.bytesPerUs;
  }

  // Weights: attention always; routed experts as the device's resident share (numExperts/group
  // whole-expert equivalents, whatever the batch); shared experts and dense FFN sharded by TP.
  const bpp = a.weightBytesPerParam;
  const attnBytes = (L * d * (2 * d + 2 * dKV) * bpp) / tp;
  let ffnBytes = 0;
  if (a.moeLayers > 0) {
    ffnBytes += a.moeLayers * a.expertsPerGpu * 3 * d * a.dFFMoE * bpp;
    if (a.sharedExpertFfnDim > 0) ffnBytes += (a.moeLayers * 3 * d * a.sharedExpertFfnDim * bpp) / tp;
  }
  if (a.denseLayers > 0) ffnBytes += (a.denseLayers * 1 * 3 * d * a.dFFDense * bpp) / tp;
  out.weight = (attnBytes + ffnBytes) / a.bytesPerUs;

  const tokens = prefillTokens + decodeTokens;
  let attnComm = 0;
  let denseComm = 0;
  if (tp > 1) {
    attnComm = allReduce(a, L, tokens) / dp;
    denseComm = allReduce(a, a.denseLayers, tokens) / dp;
  }
  // At DP = 1 the MoE FFN output is all-reduced over TP like a dense FFN; at DP > 1 the tokens
  // travel to the experts' ranks and back instead (dispatch/combine), never both.
  const moeReduce = a.moe && a.moeLayers > 0 && dp === 1 && tp > 1 ? allReduce(a, a.moeLayers, tokens) : 0;
  out.tpComm = attnComm + denseComm + moeReduce;
  out.moeDispatch = a.moe && dp > 1 ? dispatchLayerBasis(a.dispatch, tokens) * a.moeLayers : 0;
  out.requests = batch.prefillCount + decodeTokens;
  return out;
}
