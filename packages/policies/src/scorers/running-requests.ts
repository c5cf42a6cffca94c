import type { Scorer } from '../interfaces.js';
import type { RequestView, RouterState } from '../views.js';

/** Min-max normalised batch size, inverted; all equal -> 1 (GIE's running-requests scorer). */
export function createRunningRequestsScorer(): Scorer {
  return {
    name: 'running-requests',
    score(_request: RequestView, state: RouterState, out: Float64Array): void {
      const snaps = state.instances;
      let min = Number.POSITIVE_INFINITY;
      let max = Number.NEGATIVE_INFINITY;
      for (const s of snaps) {
        if (s.batchSize < min) min = s.batchSize;
        if (s.batchSize > max) max = s.batchSize;
      }
      const span = max - min;
      for (let i = 0; i < snaps.length; i++) {
        out[i] = span === 0 ? 1 : (max - snaps[i].batchSize) / span;
      }
    },
  };
}
