import type { Scorer } from '../interfaces.js';
import type { RequestView, RouterState } from '../views.js';

/**
 * Ground-truth prefix hits: each instance's `kv.cachedPrefixBlocks(request.blockHashes)`,
 * min-max normalised (most cached -> 1, least -> 0). All equal, including all zero, -> 1 for
 * everyone (llm-d's precise-prefix-cache scorer), so a cold request defers to other scorers.
 * A request whose first block is its own (`sharedPrefixBlocks` 0) is such a cold request
 * without asking the caches: one index look-up per instance per request was most of this
 * scorer's cost on workloads without shared prefixes.
 */
export function createPrecisePrefixCacheScorer(): Scorer {
  return {
    name: 'precise-prefix-cache',
    score(request: RequestView, state: RouterState, out: Float64Array): void {
      const snaps = state.instances;
      if (request.sharedPrefixBlocks === 0) {
        out.fill(1, 0, snaps.length);
        return;
      }
      let min = Number.POSITIVE_INFINITY;
      let max = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < snaps.length; i++) {
        const hits = snaps[i].kv.cachedPrefixBlocks(request.blockHashes);
        out[i] = hits;
        if (hits < min) min = hits;
        if (hits > max) max = hits;
      }
      const span = max - min;
      for (let i = 0; i < snaps.length; i++) out[i] = span === 0 ? 1 : (out[i] - min) / span;
    },
  };
}
