import type { MoECommFamily } from './comm-backends.js';
import { balancedExpertLoad } from './expert-placement.js';

/** The deployment facts one MoE layer's dispatch/combine volume depends on. */
export interface DispatchShape {
  family: MoECommFamily;
  hiddenSize: number;
  /** Activation (compute dtype) bytes: hidden states travel unquantized. */
  activationBytes: number;
  /** Experts per token. */
  k: number;
  experts: number;
  /** TP·DP. */
  group: number;
  dp: number;
  /** HBM bytes per µs: the same bandwidth basis as the TP all-reduce, which the coefficient corrects. */
  bytesPerUs: number;
}

/**
 * µs (before β11) of one MoE layer's dispatch and combine for a step of `tokens` tokens over
 * every DP rank, on the busiest rank. The all-gather family gathers each of the rank's `tokens/dp`
 * hidden states to the group and reduce-scatters them back: `(tokens/dp)·(g − 1)/g·2·hidden·bytes`.
 * The all-to-all family sends each token to its `k` experts' ranks and back: the balanced
 * placement's comm tokens × hidden × bytes (its `k` is already in them).
 */
export function dispatchLayerBasis(s: DispatchShape, tokens: number): number {
  // Evaluated left to right in BLIS's order: the µs must be bit-identical for request-level parity.
  if (s.family === 'all-gather') return ((((((tokens / s.dp) * (s.group - 1)) / s.group) * 2) * s.hiddenSize) * s.activationBytes) / s.bytesPerUs;
  return (balancedExpertLoad(tokens, s.k, s.experts, s.group, s.dp).commTokens * s.hiddenSize * s.activationBytes) / s.bytesPerUs;
}
