import * as z from 'zod';
import type { AdmissionDecision, AdmissionPolicy } from '../interfaces.js';
import { finitePositive, parsePolicyParams } from '../params.js';
import { SloPriorityMap, sloPrioritiesSchema } from '../slo-priority-map.js';
import type { RequestView, RouterState } from '../views.js';
import { lazySchema } from '../lazy-schema.js';

export const gaieLegacyParamsSchema = lazySchema(() =>
  z.strictObject({
    /** Queue depth at which an instance's queue component reaches 1 (GAIE default 5). */
    qdThreshold: finitePositive().default(5),
    /** KV utilisation at which an instance's KV component reaches 1 (GAIE default 0.8). */
    kvThreshold: finitePositive('a number in (0, 1]')
      .max(1, { error: 'expected a number in (0, 1]' })
      .default(0.8),
    priorities: sloPrioritiesSchema.optional(),
  }),
);
export type GaieLegacyParams = z.input<typeof gaieLegacyParamsSchema>;

const ADMITTED: AdmissionDecision = Object.freeze({ admit: true, reason: '' });

/**
 * BLIS `gaie-legacy` (production llm-d admission): non-sheddable classes always pass; sheddable
 * ones are rejected while the pool saturation — the mean over instances of
 * `max(queueDepth / qdThreshold, kvUtilization / kvThreshold)`, 1 with no instances — is >= 1.
 */
export function createGaieLegacy(params: GaieLegacyParams = {}): AdmissionPolicy {
  const p = parsePolicyParams('admission', 'gaie-legacy', gaieLegacyParamsSchema, params);
  const map = new SloPriorityMap(p.priorities);
  return {
    name: 'gaie-legacy',
    admit(request: RequestView, state: RouterState): AdmissionDecision {
      if (!map.isSheddable(request.sloClass)) return ADMITTED;
      const n = state.instances.length;
      let sat = 1;
      if (n > 0) {
        let total = 0;
        for (const s of state.instances) {
          total += Math.max(s.queueDepth / p.qdThreshold, s.kvUtilization / p.kvThreshold);
        }
        sat = total / n;
      }
      if (sat >= 1) {
        return {
          admit: false,
          reason: `gaie-saturated: class=${request.sloClass} saturation=${sat.toFixed(2)}`,
        };
      }
      return ADMITTED;
    },
  };
}
