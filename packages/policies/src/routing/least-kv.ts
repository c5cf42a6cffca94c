import type { RoutingDecision, RoutingPolicy } from '../interfaces.js';
import type { RequestView, RouterState } from '../views.js';
import { argmax, requireInstances } from './select.js';

/**
 * RouteSim `least_kv`: lowest KV utilisation; ties -> lowest position. Scores are
 * `1 - kvUtilization`, so the choice is their argmax.
 */
export function createLeastKv(): RoutingPolicy {
  return {
    name: 'least-kv',
    route(_request: RequestView, state: RouterState): RoutingDecision {
      const n = requireInstances('least-kv', state);
      const scores = new Float64Array(n);
      for (let i = 0; i < n; i++) scores[i] = 1 - state.instances[i].kvUtilization;
      const i = argmax(scores, n);
      return {
        instance: i,
        reason: `least-kv (kv=${state.instances[i].kvUtilization.toFixed(3)})`,
        scores,
      };
    },
  };
}
