import type { RoutingDecision, RoutingPolicy } from '../interfaces.js';
import { effectiveLoad } from '../load.js';
import type { RequestView, RouterState } from '../views.js';
import { argminBy, requireInstances } from './select.js';

/** Pathological: maximum effective load; ties -> lowest position. */
export function createAlwaysBusiest(): RoutingPolicy {
  return {
    name: 'always-busiest',
    route(_request: RequestView, state: RouterState): RoutingDecision {
      requireInstances('always-busiest', state);
      const i = argminBy(state.instances, (s) => -effectiveLoad(s));
      return {
        instance: i,
        reason: `always-busiest (load=${effectiveLoad(state.instances[i])})`,
      };
    },
  };
}
