import type { KVShape } from './kv-bytes-per-token.js';
import { type StepModelConfig, effectiveWeightBytesPerParam, isMoE } from './step-model-config.js';

/**
 * Weight bytes KV capacity sets aside, estimated as BLIS's `computeModelWeightBytes` does (after
 * llm-d-benchmark's capacity planner): embeddings, per-layer attention (Q and O sized
 * hidden × hidden, K and V hidden × KV width), a 3-matrix SwiGLU MLP (all routed experts, shared
 * experts and the router for MoE layers; a dense prefix of `first_k_dense_replace` layers), two
 * norms per layer, the LM head unless tied, a final norm; all at the quantized weight width when
 * the config (or model name) says so. Equal to BLIS's to the byte, so derived capacities are.
 */
export function capacityWeightBytes(step: StepModelConfig, shape: KVShape, tiedEmbeddings: boolean): number {
  return Math.trunc(capacityWeightParams(step, shape, tiedEmbeddings) * effectiveWeightBytesPerParam(step));
}

/** The parameter count behind {@link capacityWeightBytes}. */
function capacityWeightParams(step: StepModelConfig, shape: KVShape, tiedEmbeddings: boolean): number {
  const hidden = step.hiddenSize;
  const layers = step.layers;
  const headDim = shape.headDim > 0 ? shape.headDim : step.heads === 0 ? 0 : Math.trunc(hidden / step.heads);
  const kvDim = step.kvHeads * headDim;
  const attentionPerLayer = hidden * (hidden + 2 * kvDim) + hidden * hidden;
  const denseMlpPerLayer = 3 * hidden * step.intermediateSize;
  let mlp = layers * denseMlpPerLayer;
  if (isMoE(step)) {
    const expertDim = step.moeExpertFfnDim > 0 ? step.moeExpertFfnDim : step.intermediateSize;
    let moePerLayer = 3 * hidden * expertDim * step.experts;
    if (step.sharedExpertFfnDim > 0) moePerLayer += 3 * hidden * step.sharedExpertFfnDim;
    moePerLayer += step.experts * hidden;
    const densePrefixPerLayer = step.denseIntermediateSize > 0 ? 3 * hidden * step.denseIntermediateSize : denseMlpPerLayer;
    const denseLayers = Math.min(Math.max(step.firstKDenseReplace, 0), layers);
    mlp = denseLayers * densePrefixPerLayer + (layers - denseLayers) * moePerLayer;
  }
  return step.vocabSize * hidden + layers * (attentionPerLayer + 2 * hidden) + mlp + (tiedEmbeddings ? 0 : step.vocabSize * hidden) + hidden;
}

/**
 * Parameters of the routed experts alone (every MoE layer's experts, 3 matrices each): the part of
 * the weights a data-parallel MoE deployment shards over all `tp·dp` GPUs instead of replicating
 * per rank. 0 for a dense model.
 */
export function routedExpertParams(step: StepModelConfig): number {
  if (!isMoE(step)) return 0;
  const expertDim = step.moeExpertFfnDim > 0 ? step.moeExpertFfnDim : step.intermediateSize;
  const moeLayers = step.layers - Math.min(Math.max(step.firstKDenseReplace, 0), step.layers);
  return moeLayers * 3 * step.hiddenSize * expertDim * step.experts;
}

/**
 * Weight bytes one data-parallel rank (its `tp` GPUs) holds: everything but the routed experts
 * replicated, the routed experts' `1/dp` share (vLLM shards them over the flattened TP·DP group,
 * whole experts with EP, slices without: the same bytes). At `dp` 1, {@link capacityWeightBytes}.
 */
export function capacityWeightBytesPerRank(step: StepModelConfig, shape: KVShape, tiedEmbeddings: boolean, dp: number): number {
  if (dp <= 1 || !isMoE(step)) return capacityWeightBytes(step, shape, tiedEmbeddings);
  const whole = capacityWeightParams(step, shape, tiedEmbeddings);
  const routed = routedExpertParams(step);
  return Math.trunc((whole - routed + routed / dp) * effectiveWeightBytesPerParam(step));
}
