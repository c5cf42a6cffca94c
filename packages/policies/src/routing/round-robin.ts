import type { RoutingDecision, RoutingPolicy } from '../interfaces.js';
import type { RequestView, RouterState } from '../views.js';
import { requireInstances } from './select.js';

/**
 * The k-th routed request goes to position `k mod N` of `state.instances`. The counter
 * advances only when a request is routed (rejected requests never reach routing). Returns no
 * scores: counterfactual regret falls back to the load-based ranking, as in BLIS.
 */
export function createRoundRobin(): RoutingPolicy {
  let counter = 0;
  return {
    name: 'round-robin',
    route(_request: RequestView, state: RouterState): RoutingDecision {
      const n = requireInstances('round-robin', state);
      const k = counter++;
      return { instance: k % n, reason: `round-robin[${k}]` };
    },
  };
}
