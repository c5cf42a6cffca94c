/**
 * The routing policy OpenEvolve evolves. `blis evaluate` compiles this module (TypeScript, its
 * imports of `@blis/policies` resolved by the simulator), calls the default export once per run
 * with the run's context, and routes every request through `route`.
 *
 * The contract (`@blis/policies`): return a POSITION in `state.instances`; never mutate the views;
 * no Math.random (use `ctx.random`, a seeded stream) and no clock, so that runs are reproducible.
 * Lines outside the EVOLVE-BLOCK markers are the fixed frame.
 */
import {
  effectiveLoad,
  type InstanceSnapshot,
  type PolicyFactoryContext,
  type RequestView,
  type RouterState,
  type RoutingDecision,
  type RoutingPolicy,
} from '@blis/policies';

// # EVOLVE-BLOCK-START
/**
 * How much `inst` is worth for `request`, higher is better. The starting point leans on prefix
 * reuse: a cached prompt prefix saves prefill work, but piling every request of a shared system
 * prompt onto one replica queues them all there.
 */
function score(request: RequestView, inst: InstanceSnapshot, state: RouterState): number {
  const blocks = request.blockHashes.length;
  const cachedShare = blocks > 0 ? inst.kv.cachedPrefixBlocks(request.blockHashes) / blocks : 0;
  const load = effectiveLoad(inst);
  const meanLoad = state.instances.reduce((acc, s) => acc + effectiveLoad(s), 0) / state.instances.length;
  return 4 * cachedShare - 0.05 * (load - meanLoad) - 0.5 * inst.kvUtilization;
}
// # EVOLVE-BLOCK-END

export default function createEvolvedRouter(_ctx: PolicyFactoryContext): RoutingPolicy {
  return {
    name: 'evolved-router',
    route(request: RequestView, state: RouterState): RoutingDecision {
      let best = 0;
      let bestScore = Number.NEGATIVE_INFINITY;
      state.instances.forEach((inst, i) => {
        const s = score(request, inst, state);
        // Strictly greater: ties go to the lowest position, so the choice is deterministic.
        if (s > bestScore) {
          best = i;
          bestScore = s;
        }
      });
      return { instance: best, reason: `evolved (score ${bestScore.toFixed(3)})` };
    },
  };
}
