/**
 * The policy under test: send each request to the instance with the shortest queue (waiting
 * plus running plus in flight), ties to the one whose KV cache holds more of the request's
 * leading prompt blocks, then to the lowest position. A stand-in for your own router.
 */
import type { PolicyFactoryContext, RequestView, RouterState, RoutingDecision, RoutingPolicy } from '@blis/policies';

/** Queued, running and in-flight requests of the instance at `position`. */
export function load(state: RouterState, position: number): number {
  const s = state.instances[position];
  return s.queueDepth + s.batchSize + s.inFlightRequests;
}

export default function createLeastQueue(_ctx: PolicyFactoryContext): RoutingPolicy {
  return {
    name: 'least-queue',
    route(request: RequestView, state: RouterState): RoutingDecision {
      let best = 0;
      let bestHit = state.instances[0].kv.cachedPrefixBlocks(request.blockHashes);
      for (let i = 1; i < state.instances.length; i++) {
        const hit = state.instances[i].kv.cachedPrefixBlocks(request.blockHashes);
        const d = load(state, i) - load(state, best);
        if (d < 0 || (d === 0 && hit > bestHit)) {
          best = i;
          bestHit = hit;
        }
      }
      return { instance: best, reason: `least-queue: load=${load(state, best)} hit=${bestHit}` };
    },
  };
}
