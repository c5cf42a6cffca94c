import type { Scorer } from '../interfaces.js';
import { effectiveLoad } from '../load.js';
import type { RequestView, RouterState } from '../views.js';

/**
 * Min-max normalised effective load (QueueDepth + BatchSize + InFlight), inverted:
 * `(max - load) / (max - min)`; the least loaded scores 1, the most loaded 0, all equal -> 1.
 * llm-d's queue scorer.
 */
export function createQueueDepthScorer(): Scorer {
  return {
    name: 'queue-depth',
    score(_request: RequestView, state: RouterState, out: Float64Array): void {
      const snaps = state.instances;
      let min = Number.POSITIVE_INFINITY;
      let max = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < snaps.length; i++) {
        const load = effectiveLoad(snaps[i]);
        out[i] = load;
        if (load < min) min = load;
        if (load > max) max = load;
      }
      const span = max - min;
      for (let i = 0; i < snaps.length; i++) out[i] = span === 0 ? 1 : (max - out[i]) / span;
    },
  };
}
