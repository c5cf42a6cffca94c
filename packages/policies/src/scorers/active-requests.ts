import type { Scorer } from '../interfaces.js';
import type { RequestView, RouterState } from '../views.js';

/**
 * In-flight requests, max-only normalisation: an instance with none scores 1, others
 * `(max - count) / max`. All equal and non-zero -> all 0 (llm-d's active-request scorer;
 * contrast running-requests, which gives 1 when all are equal).
 */
export function createActiveRequestsScorer(): Scorer {
  return {
    name: 'active-requests',
    score(_request: RequestView, state: RouterState, out: Float64Array): void {
      const snaps = state.instances;
      let max = 0;
      for (const s of snaps) if (s.inFlightRequests > max) max = s.inFlightRequests;
      for (let i = 0; i < snaps.length; i++) {
        const c = snaps[i].inFlightRequests;
        out[i] = c <= 0 || max === 0 ? 1 : (max - c) / max;
      }
    },
  };
}
