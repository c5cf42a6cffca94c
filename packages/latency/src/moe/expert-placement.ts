/**
 * One step's MoE load on the busiest GPU of the MoE group, with routed tokens and experts spread
 * evenly over it (no skew): the figures BLIS HEAD's balanced placement gives, which the
 * trained-physics basis times are sized by.
 */
export interface ExpertLoad {
  /** Token·expert pairs the GPU computes in one MoE layer: `tokens·k / group`. */
  computeTokens: number;
  /** Whole-expert equivalents resident on the GPU: `experts / group`, whether EP owns them whole or TP slices them. */
  expertCount: number;
  /** Token·expert pairs one source rank sends and gets back through an all-to-all: `(tokens/dp)·k·(group − 1)/group·2`. */
  commTokens: number;
}

/**
 * The balanced load of `tokens` routed tokens (over the whole step, every DP rank) to `k`
 * experts each, of `experts` routed experts sharded over a group of `group` GPUs (TP·DP), with
 * `dp` data-parallel ranks each owning a disjoint `1/dp` of the tokens.
 */
export function balancedExpertLoad(tokens: number, k: number, experts: number, group: number, dp: number): ExpertLoad {
  return {
    computeTokens: (tokens * k) / group,
    expertCount: experts / group,
    // Dispatch sends to the other group − 1 members, combine brings the results back.
    commTokens: (((tokens / dp) * k * (group - 1)) / group) * 2,
  };
}
