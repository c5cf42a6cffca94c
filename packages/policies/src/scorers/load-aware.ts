import type { Scorer } from '../interfaces.js';
import type { RequestView, RouterState } from '../views.js';

/** llm-d's queue threshold: a queue this deep or deeper scores 0. */
export const LOAD_AWARE_QUEUE_THRESHOLD = 128;

/**
 * `0.5 * (1 - min(queueDepth, 128) / 128)`, so scores lie in [0, 0.5]; an empty queue scores
 * 0.5 (llm-d's load-aware scorer).
 */
export function createLoadAwareScorer(): Scorer {
  return {
    name: 'load-aware',
    score(_request: RequestView, state: RouterState, out: Float64Array): void {
      const snaps = state.instances;
      for (let i = 0; i < snaps.length; i++) {
        const q = snaps[i].queueDepth;
        if (q <= 0) {
          out[i] = 0.5;
        } else {
          const c = Math.min(q, LOAD_AWARE_QUEUE_THRESHOLD);
          out[i] = 0.5 * (1 - c / LOAD_AWARE_QUEUE_THRESHOLD);
        }
      }
    },
  };
}
