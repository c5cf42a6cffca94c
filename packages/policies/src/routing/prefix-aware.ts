import * as z from 'zod';
import type { RoutingDecision, RoutingPolicy } from '../interfaces.js';
import { outstandingRequests } from '../load.js';
import { finitePositive, parsePolicyParams, positiveInt, unitInterval } from '../params.js';
import type { RequestView, RouterState } from '../views.js';
import { argmax, argminBy, requireInstances } from './select.js';
import { lazySchema } from '../lazy-schema.js';

export const prefixAwareParamsSchema = lazySchema(() =>
  z.strictObject({
    /** Weight of the cache term; 0 = pure load, 1 = pure cache (RouteSim default 0.8). */
    cacheWeight: unitInterval().default(0.8),
    /** Load at which the load term reaches 0 (RouteSim: 256). */
    maxLoad: finitePositive().default(256),
    /** Leading cached blocks that count as "has the prefix". */
    minPrefixBlocks: positiveInt().default(1),
  }),
);
export type PrefixAwareParams = z.input<typeof prefixAwareParamsSchema>;

/**
 * RouteSim `prefix_aware`: `score = w * hasPrefix + (1 - w) * (1 - min(load / maxLoad, 1))`
 * where hasPrefix is 1 when the instance's KV cache holds at least `minPrefixBlocks` leading
 * blocks of the request, and load is outstanding requests. A request with no full block falls
 * back to least outstanding (no scores). Ties -> lowest position (RouteSim takes the last).
 */
export function createPrefixAware(params: PrefixAwareParams = {}): RoutingPolicy {
  const p = parsePolicyParams('routing', 'prefix-aware', prefixAwareParamsSchema, params);
  const w = p.cacheWeight;
  return {
    name: 'prefix-aware',
    route(request: RequestView, state: RouterState): RoutingDecision {
      const n = requireInstances('prefix-aware', state);
      const snaps = state.instances;
      if (request.blockHashes.length === 0) {
        const i = argminBy(snaps, outstandingRequests);
        return { instance: i, reason: 'prefix-aware (no prefix, least outstanding)' };
      }
      const scores = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const has = snaps[i].kv.cachedPrefixBlocks(request.blockHashes) >= p.minPrefixBlocks;
        const loadScore = 1 - Math.min(outstandingRequests(snaps[i]) / p.maxLoad, 1);
        scores[i] = w * (has ? 1 : 0) + (1 - w) * loadScore;
      }
      const i = argmax(scores, n);
      return { instance: i, reason: `prefix-aware (score=${scores[i].toFixed(3)})`, scores };
    },
  };
}
