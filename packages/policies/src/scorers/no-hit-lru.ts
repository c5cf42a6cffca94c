import type { Scorer } from '../interfaces.js';
import type { RequestView, RouterState } from '../views.js';

/**
 * Spreads cold traffic. A request is warm when any instance's KV cache holds at least its first
 * block; warm requests score 0.5 everywhere (neutral). Cold requests rank instances by how long
 * ago they last received a cold request: never-used instances first (in instance order), then
 * oldest to newest; rank r of n scores `1 - r / (n - 1)` (a single instance scores 1).
 * `observe` moves the chosen instance to most-recent, and only after a cold request.
 */
export function createNoHitLruScorer(): Scorer {
  // Instance ids, most recently used first. Updated on cold routing only.
  let lru: number[] = [];
  let lastWarm = true;
  let lastRequestIndex = -1;

  return {
    name: 'no-hit-lru',
    score(request: RequestView, state: RouterState, out: Float64Array): void {
      const snaps = state.instances;
      const n = snaps.length;
      lastRequestIndex = request.index;
      lastWarm = false;
      // A request whose first block is its own is cold everywhere (see RequestView.sharedPrefixBlocks).
      for (let i = 0; i < n && request.sharedPrefixBlocks !== 0; i++) {
        if (snaps[i].kv.cachedPrefixBlocks(request.blockHashes) > 0) {
          lastWarm = true;
          break;
        }
      }
      if (lastWarm) {
        out.fill(0.5, 0, n);
        return;
      }
      if (n <= 1) {
        if (n === 1) out[0] = 1;
        return;
      }
      const positionOf = new Map<number, number>();
      for (let i = 0; i < n; i++) positionOf.set(snaps[i].index, i);
      // Forget instances that left the routable set so the order cannot grow without bound.
      if (lru.some((id) => !positionOf.has(id))) lru = lru.filter((id) => positionOf.has(id));
      const used = new Set(lru);
      let rank = 0;
      for (let i = 0; i < n; i++) {
        if (!used.has(snaps[i].index)) out[i] = 1 - rank++ / (n - 1);
      }
      for (let k = lru.length - 1; k >= 0; k--) {
        out[positionOf.get(lru[k]) as number] = 1 - rank++ / (n - 1);
      }
    },
    observe(request: RequestView, chosen: number, state: RouterState): void {
      if (lastWarm || request.index !== lastRequestIndex) return;
      const snap = state.instances[chosen];
      if (snap === undefined) return;
      const at = lru.indexOf(snap.index);
      if (at >= 0) lru.splice(at, 1);
      lru.unshift(snap.index);
    },
  };
}
