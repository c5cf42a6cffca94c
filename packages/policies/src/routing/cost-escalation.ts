import * as z from 'zod';
import type { RoutingDecision, RoutingPolicy } from '../interfaces.js';
import { finiteNonNegative, parsePolicyParams } from '../params.js';
import type { RequestView, RouterState } from '../views.js';
import { requireInstances } from './select.js';
import { lazySchema } from '../lazy-schema.js';

export const costEscalationParamsSchema = lazySchema(() =>
  z.strictObject({
    /** Cost added per routed request (RouteSim default 1.0). */
    baseCost: finiteNonNegative().default(1),
    /** Cost added per queued request on the chosen instance (default 0.5). */
    queueCost: finiteNonNegative().default(0.5),
    /** Cost added per unit of KV utilisation on the chosen instance (default 2.0). */
    kvPressureCost: finiteNonNegative().default(2),
    /** Exponential decay rate of every cost, per second (default 0.1). */
    decayPerSec: finiteNonNegative().default(0.1),
  }),
);
export type CostEscalationParams = z.input<typeof costEscalationParamsSchema>;

/**
 * RouteSim `cost_escalation`: each instance carries a cost that decays as
 * `cost * exp(-decayPerSec * elapsedSeconds)`; the request goes to the lowest cost (ties ->
 * lowest position) and the chosen instance's cost then grows by
 * `baseCost + queueCost * queueDepth + kvPressureCost * kvUtilization`. Scores are
 * `1 / (1 + cost)` before the escalation.
 */
export function createCostEscalation(params: CostEscalationParams = {}): RoutingPolicy {
  const p = parsePolicyParams('routing', 'cost-escalation', costEscalationParamsSchema, params);
  const costs = new Map<number, number>();
  let lastUpdateUs = 0;
  return {
    name: 'cost-escalation',
    route(_request: RequestView, state: RouterState): RoutingDecision {
      const n = requireInstances('cost-escalation', state);
      const snaps = state.instances;
      const elapsedSec = Math.max(0, state.nowUs - lastUpdateUs) / 1e6;
      const decay = Math.exp(-p.decayPerSec * elapsedSec);
      lastUpdateUs = state.nowUs;
      const scores = new Float64Array(n);
      let i = 0;
      let lowest = Number.POSITIVE_INFINITY;
      for (let k = 0; k < n; k++) {
        const id = snaps[k].index;
        const c = (costs.get(id) ?? 0) * decay;
        costs.set(id, c);
        scores[k] = 1 / (1 + c);
        if (c < lowest) {
          lowest = c;
          i = k;
        }
      }
      const s = snaps[i];
      const before = costs.get(s.index) ?? 0;
      costs.set(
        s.index,
        before + p.baseCost + p.queueCost * s.queueDepth + p.kvPressureCost * s.kvUtilization,
      );
      return { instance: i, reason: `cost-escalation (cost=${before.toFixed(3)})`, scores };
    },
  };
}
