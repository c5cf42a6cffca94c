import { type RouterState, type RoutingDecision, counterfactualFallbackScore } from '@blis/policies';
import { regretOf, topCandidates } from './counterfactual.js';
import type { CandidateEntry, RoutingDecisionFields, SnapshotEntry } from './records.js';

/**
 * The shared fields as built: the decision (`fields`, in record order) apart from `pool` and
 * `topk`, which each record places where its field order wants them.
 */
export interface RoutingFields {
  fields: Omit<RoutingDecisionFields, 'pool' | 'topk'>;
  pool: number[] | undefined;
  topk: CandidateEntry[] | undefined;
}

/**
 * One routing decision in record fields. Scores, breakdown and snapshot are by position in
 * `state.instances`; the chosen instance and the candidates are named by instance index, so a
 * decision over one P/D pool reads the same as one over the whole cluster. Regret is computed
 * by the same code for both records, so it means the same thing in both.
 */
export function routingFields(decision: RoutingDecision, state: RouterState, hashes: ArrayLike<number>, now: number, k: number): RoutingFields {
  const insts = state.instances;
  const n = insts.length;
  const snap: SnapshotEntry[] = new Array(n);
  const scores: number[] = new Array(n);
  const policyScores = decision.scores;
  // A pool is named only when the router saw one: a P/D pool, or instances out of index order.
  let pooled = false;
  for (let i = 0; i < n; i++) {
    const s = insts[i];
    if (s.index !== i || (s.pool !== undefined && s.pool !== 'monolithic')) pooled = true;
    snap[i] = {
      q: s.queueDepth,
      b: s.batchSize,
      f: s.inFlightRequests,
      kv: s.kvUtilization,
      free: s.freeKVBlocks,
      pb: hashes.length === 0 ? 0 : s.kv.cachedPrefixBlocks(hashes),
      age: now - s.snapshotTimeUs,
    };
    // +0 folds -0 (a negated zero load) into 0, so the trace reads back equal.
    scores[i] = (policyScores !== undefined ? policyScores[i] : counterfactualFallbackScore(s)) + 0;
  }
  const by: Record<string, number[]> = {};
  const breakdown = decision.breakdown;
  if (breakdown !== undefined) for (const name in breakdown) by[name] = Array.from(breakdown[name], (x) => x + 0);
  const chosen = decision.instance;
  let topk: CandidateEntry[] | undefined;
  if (k > 0) {
    topk = topCandidates(scores, k, breakdown !== undefined ? by : undefined);
    for (const c of topk) c.i = insts[c.i].index;
  }
  return {
    fields: {
      inst: insts[chosen].index,
      reason: decision.reason,
      scored: policyScores !== undefined ? 'policy' : 'load',
      scores,
      by,
      snap,
      regret: regretOf(scores, chosen),
    },
    pool: pooled ? insts.map((s) => s.index) : undefined,
    topk,
  };
}
