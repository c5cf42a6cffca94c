import type { Scorer } from '../interfaces.js';
import { effectiveLoad } from '../load.js';
import type { RequestView, RouterState } from '../views.js';

/** `1 / (1 + effectiveLoad)`: keeps absolute load differences (BLIS-native). */
export function createLoadBalanceScorer(): Scorer {
  return {
    name: 'load-balance',
    score(_request: RequestView, state: RouterState, out: Float64Array): void {
      const snaps = state.instances;
      for (let i = 0; i < snaps.length; i++) {
        const load = effectiveLoad(snaps[i]);
        out[i] = load > 0 ? 1 / (1 + load) : 1;
      }
    },
  };
}
