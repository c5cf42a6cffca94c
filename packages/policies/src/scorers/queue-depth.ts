import type { Scorer } from '../interfaces.js';
import type { RequestView, RouterState } from '../views.js';

/**
 * Min-max normalised waiting-queue depth, inverted: `(max - depth) / (max - min)`; the shortest
 * queue scores 1, the longest 0, all equal -> 1. llm-d's queue scorer, which reads the waiting
 * queue alone, as BLIS HEAD's does (running and in-flight requests are other scorers' signals).
 */
export function createQueueDepthScorer(): Scorer {
  return {
    name: 'queue-depth',
    score(_request: RequestView, state: RouterState, out: Float64Array): void {
      const snaps = state.instances;
      let min = Number.POSITIVE_INFINITY;
      let max = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < snaps.length; i++) {
        const load = snaps[i].queueDepth;
        out[i] = load;
        if (load < min) min = load;
        if (load > max) max = load;
      }
      const span = max - min;
      for (let i = 0; i < snaps.length; i++) out[i] = span === 0 ? 1 : (max - out[i]) / span;
    },
  };
}
