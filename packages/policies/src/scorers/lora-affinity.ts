import type { Scorer } from '../interfaces.js';
import type { RequestView, RouterState } from '../views.js';

/**
 * Prefers instances that already hold the request's LoRA adapter, sparing a cold load: 1 where
 * the adapter is resident (as of the snapshot's last refresh), 0 where not. When every instance
 * agrees (all warm, all cold, one instance) or the request runs the base model, everyone scores
 * 1, so other scorers decide. BLIS's and llm-d's lora-affinity.
 */
export function createLoraAffinityScorer(): Scorer {
  return {
    name: 'lora-affinity',
    score(request: RequestView, state: RouterState, out: Float64Array): void {
      const snaps = state.instances;
      const adapter = request.adapter;
      let warm = 0;
      for (let i = 0; i < snaps.length; i++) {
        const hit = adapter !== undefined && adapter !== '' && snaps[i].residentAdapters?.has(adapter) === true;
        out[i] = hit ? 1 : 0;
        if (hit) warm++;
      }
      if (warm === 0 || warm === snaps.length) out.fill(1, 0, snaps.length);
    },
  };
}
