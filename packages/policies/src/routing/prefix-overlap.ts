import * as z from 'zod';
import type { RoutingDecision, RoutingPolicy } from '../interfaces.js';
import { outstandingRequests } from '../load.js';
import { parsePolicyParams, positiveInt, unitInterval } from '../params.js';
import type { RequestView, RouterState } from '../views.js';
import { argmax, argminBy, requireInstances } from './select.js';
import { lazySchema } from '../lazy-schema.js';

export const prefixOverlapParamsSchema = lazySchema(() =>
  z.strictObject({
    /** Weight of the overlap term (RouteSim default 0.7). */
    cacheWeight: unitInterval().default(0.7),
    /** Per-instance queue capacity the load ratio divides by (RouteSim default 256). */
    maxQueueDepth: positiveInt().default(256),
    /** Load ratio at and above which cache affinity is ignored (RouteSim: 0.9). */
    circuitBreaker: unitInterval().default(0.9),
  }),
);
export type PrefixOverlapParams = z.input<typeof prefixOverlapParamsSchema>;

/**
 * RouteSim `prefix_overlap`: with `ratio = min(outstanding / maxQueueDepth, 1)`,
 * `score = w * cached / blocks + (1 - w) * (1 - ratio)`, or only `(1 - w) * (1 - ratio)` once
 * `ratio >= circuitBreaker`. `cached` is the instance's leading cached blocks of the request
 * (RouteSim counts matching blocks anywhere; with chained hashes a cached block almost always
 * comes with its predecessors). No full block -> least outstanding (no scores). Ties -> lowest
 * position (RouteSim takes the last).
 */
export function createPrefixOverlap(params: PrefixOverlapParams = {}): RoutingPolicy {
  const p = parsePolicyParams('routing', 'prefix-overlap', prefixOverlapParamsSchema, params);
  const w = p.cacheWeight;
  return {
    name: 'prefix-overlap',
    route(request: RequestView, state: RouterState): RoutingDecision {
      const n = requireInstances('prefix-overlap', state);
      const snaps = state.instances;
      const blocks = request.blockHashes.length;
      if (blocks === 0) {
        const i = argminBy(snaps, outstandingRequests);
        return { instance: i, reason: 'prefix-overlap (no blocks, least outstanding)' };
      }
      const scores = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const ratio = Math.min(outstandingRequests(snaps[i]) / p.maxQueueDepth, 1);
        if (ratio >= p.circuitBreaker) {
          scores[i] = (1 - w) * (1 - ratio);
        } else {
          const cached = snaps[i].kv.cachedPrefixBlocks(request.blockHashes);
          scores[i] = (w * cached) / blocks + (1 - w) * (1 - ratio);
        }
      }
      const i = argmax(scores, n);
      return { instance: i, reason: `prefix-overlap (score=${scores[i].toFixed(3)})`, scores };
    },
  };
}
