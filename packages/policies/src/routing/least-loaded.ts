import type { RoutingDecision, RoutingPolicy } from '../interfaces.js';
import { effectiveLoad } from '../load.js';
import type { RequestView, RouterState } from '../views.js';
import { argminBy, requireInstances } from './select.js';

/** Minimum effective load (QueueDepth + BatchSize + InFlight); ties -> lowest position. */
export function createLeastLoaded(): RoutingPolicy {
  return {
    name: 'least-loaded',
    route(_request: RequestView, state: RouterState): RoutingDecision {
      requireInstances('least-loaded', state);
      const i = argminBy(state.instances, effectiveLoad);
      return {
        instance: i,
        reason: `least-loaded (load=${effectiveLoad(state.instances[i])})`,
      };
    },
  };
}
