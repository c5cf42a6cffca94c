import type { Scorer } from '../interfaces.js';
import type { RequestView, RouterState } from '../views.js';

/**
 * vLLM's data-parallel load balancer (DPLBAsyncMPClient) as a scorer, as BLIS HEAD has it:
 * vLLM sends a request to the engine of least `waiting × 4 + running`; that load, min-max
 * normalised and inverted, makes the argmin the highest score (all equal -> 1). vLLM's client
 * also bumps its cached waiting count after each decision between stats updates; neither BLIS
 * nor this scorer models that (requests are routed one at a time on fresh or stale snapshots).
 */
export function createVllmDpScorer(): Scorer {
  return {
    name: 'vllm-dp',
    score(_request: RequestView, state: RouterState, out: Float64Array): void {
      const snaps = state.instances;
      let min = Number.POSITIVE_INFINITY;
      let max = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < snaps.length; i++) {
        const load = snaps[i].queueDepth * 4 + snaps[i].batchSize;
        out[i] = load;
        if (load < min) min = load;
        if (load > max) max = load;
      }
      const span = max - min;
      for (let i = 0; i < snaps.length; i++) out[i] = span === 0 ? 1 : (max - out[i]) / span;
    },
  };
}
