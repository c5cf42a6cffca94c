import type { RoutingDecision, RoutingPolicy } from '../interfaces.js';
import { effectiveLoad } from '../load.js';
import type { RequestView, RouterState } from '../views.js';
import type { RandomSource } from '../random-source.js';
import { argminByTieBreak, requireInstances } from './select.js';

/**
 * Minimum effective load (QueueDepth + BatchSize + InFlight). Ties go to one of the tied
 * instances drawn from `random` (BLIS's random tie-break), or to the lowest position without it.
 */
export function createLeastLoaded(random?: RandomSource): RoutingPolicy {
  return {
    name: 'least-loaded',
    route(_request: RequestView, state: RouterState): RoutingDecision {
      requireInstances('least-loaded', state);
      const i = argminByTieBreak(state.instances, effectiveLoad, random);
      return {
        instance: i,
        reason: `least-loaded (load=${effectiveLoad(state.instances[i])})`,
      };
    },
  };
}
