import type { Scorer } from '../interfaces.js';
import type { RequestView, RouterState } from '../views.js';
import { clampUnit } from './clamp.js';

/** `1 - kvUtilization`: free memory attracts requests. llm-d's kv-cache-utilization scorer. */
export function createKvUtilizationScorer(): Scorer {
  return {
    name: 'kv-utilization',
    score(_request: RequestView, state: RouterState, out: Float64Array): void {
      const snaps = state.instances;
      for (let i = 0; i < snaps.length; i++) out[i] = clampUnit(1 - snaps[i].kvUtilization);
    },
  };
}
