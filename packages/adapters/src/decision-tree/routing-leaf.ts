import { createRoutingPolicy, type PolicyFactoryContext, type RoutingDecision, type RoutingPolicy } from '@blis/policies';
import { compileCondition, getterOf } from './compile-condition.js';
import type { Env } from './signal-getters.js';
import type { RoutingLeaf } from './types.js';

/** A compiled routing leaf: picks a position in `e.state.instances`. */
export interface RoutingAction {
  decide(e: Env): RoutingDecision;
  /** The built-in policy a weighted leaf delegates to (for its onComplete hook). */
  readonly delegate?: RoutingPolicy;
}

/**
 * `least` / `most`: scan the instances that pass `where` for the smallest / largest `by`, ties
 * to the lowest position (strict comparison). When no instance passes `where`, every instance
 * is a candidate: the filter narrows a choice, it never leaves a request unrouted.
 * `weighted`: the registry's `weighted` routing over the leaf's scorers, built once, so
 * stateful scorers (prefix-affinity) learn from the requests this leaf routes.
 */
export function compileRoutingLeaf(leaf: RoutingLeaf, path: string, ctx: PolicyFactoryContext): RoutingAction {
  const reason = `decision-tree ${path}`;
  if (leaf.route === 'weighted') {
    const scorers = Object.entries(leaf.scorers).map(([name, weight]) => ({ name, weight }));
    const delegate = createRoutingPolicy('weighted', { ...ctx, params: { scorers } });
    return {
      delegate,
      decide(e) {
        const d = delegate.route(e.request, e.state);
        return { instance: d.instance, reason, scores: d.scores, breakdown: d.breakdown };
      },
    };
  }
  const by = getterOf(leaf.by) as (e: Env) => number;
  const where = leaf.where !== undefined ? compileCondition(leaf.where) : undefined;
  const most = leaf.route === 'most';
  const scan = (e: Env, filtered: boolean): number => {
    const xs = e.state.instances;
    let best = -1;
    let bestValue = 0;
    for (let i = 0; i < xs.length; i++) {
      e.instance = xs[i];
      if (filtered && where !== undefined && !where(e)) continue;
      const v = by(e);
      if (best < 0 || (most ? v > bestValue : v < bestValue)) {
        best = i;
        bestValue = v;
      }
    }
    return best;
  };
  return {
    decide(e) {
      if (e.state.instances.length === 0) throw new Error('decision-tree: RouterState has no instances to route to');
      let chosen = scan(e, true);
      if (chosen < 0) chosen = scan(e, false);
      return { instance: chosen, reason };
    },
  };
}
