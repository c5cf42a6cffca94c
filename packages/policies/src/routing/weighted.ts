import type { RoutingDecision, RoutingPolicy, Scorer } from '../interfaces.js';
import { clampUnit } from '../scorers/clamp.js';
import type { RequestView, RouterState } from '../views.js';
import { ScoreArena } from './score-arena.js';
import type { RandomSource } from '../random-source.js';
import { argmaxTieBreak, requireInstances } from './select.js';

/** A scorer and its (unnormalised, > 0) weight. */
export interface WeightedScorer {
  readonly scorer: Scorer;
  readonly weight: number;
}

/**
 * BLIS `weighted` routing. Each scorer writes a score per instance; scores are clamped to
 * [0, 1] (NaN -> 0), multiplied by the scorer's weight normalised so the weights sum to 1, and
 * summed per instance in scorer order. The request goes to the argmax; ties go to one of the
 * tied instances drawn from `random` (BLIS breaks them with its router stream), or to the lowest
 * position without it. Then every scorer with an `observe` hook is told the choice (stateful scorers update
 * their indexes). The decision carries the final `scores` and each scorer's raw output in
 * `breakdown`; all of them are fresh per decision and never touched again (views into a shared
 * slab, see score-arena.ts: copy them to keep them, rather than holding on to the slab).
 */
export function createWeightedRouting(entries: readonly WeightedScorer[], random?: RandomSource): RoutingPolicy {
  if (entries.length === 0) throw new Error('weighted: at least one scorer is required');
  let total = 0;
  const names = new Set<string>();
  for (const e of entries) {
    if (names.has(e.scorer.name)) {
      throw new Error(`weighted: scorer "${e.scorer.name}" appears twice; each scorer may appear once`);
    }
    names.add(e.scorer.name);
    if (!Number.isFinite(e.weight) || e.weight <= 0) {
      throw new RangeError(
        `weighted: scorer "${e.scorer.name}" weight must be a finite number > 0, got ${e.weight}`,
      );
    }
    total += e.weight;
  }
  const scorers = entries.map((e) => e.scorer);
  const weights = entries.map((e) => e.weight / total);
  const observers = scorers.filter((s) => s.observe !== undefined);
  const arena = new ScoreArena();
  const reporting = scorers.filter((s) => s.metrics !== undefined);

  const policy: RoutingPolicy = {
    name: 'weighted',
    route(request: RequestView, state: RouterState): RoutingDecision {
      const n = requireInstances('weighted', state);
      const scores = arena.take(n);
      const breakdown: Record<string, Float64Array> = {};
      for (let k = 0; k < scorers.length; k++) {
        const raw = arena.take(n);
        scorers[k].score(request, state, raw);
        breakdown[scorers[k].name] = raw;
        const w = weights[k];
        for (let i = 0; i < n; i++) scores[i] += clampUnit(raw[i]) * w;
      }
      const chosen = argmaxTieBreak(scores, n, random);
      for (const s of observers) s.observe?.(request, chosen, state);
      return {
        instance: chosen,
        reason: `weighted-scoring (score=${scores[chosen].toFixed(3)})`,
        scores,
        breakdown,
      };
    },
  };
  // Scorers live inside the router, so their metrics surface through it (`scorer.metric`); a
  // router none of whose scorers reports has no `metrics` at all, and no `custom_metrics` entry.
  if (reporting.length === 0) return policy;
  return { ...policy, metrics: () => scorerMetrics(reporting) };
}

function scorerMetrics(scorers: readonly Scorer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of scorers) {
    const m = s.metrics?.() ?? {};
    for (const k of Object.keys(m)) out[`${s.name}.${k}`] = m[k];
  }
  return out;
}
