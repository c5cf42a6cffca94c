import * as z from 'zod';
import type { AdmissionDecision, AdmissionPolicy } from '../interfaces.js';
import { effectiveLoad } from '../load.js';
import { nonNegativeInt, parsePolicyParams } from '../params.js';
import { SloPriorityMap, sloPrioritiesSchema } from '../slo-priority-map.js';
import type { RequestView, RouterState } from '../views.js';
import { lazySchema } from '../lazy-schema.js';

export const tierShedParamsSchema = lazySchema(() =>
  z.strictObject({
    /** Max per-instance effective load before shedding starts (BLIS `tier_shed_threshold`). */
    overloadThreshold: nonNegativeInt().default(0),
    /** Lowest class priority still admitted under overload (BLIS `tier_shed_min_priority`). */
    minAdmitPriority: z.int({ error: 'expected an integer' }).default(3),
    priorities: sloPrioritiesSchema.optional(),
  }),
);
export type TierShedParams = z.input<typeof tierShedParamsSchema>;

const ADMITTED: AdmissionDecision = Object.freeze({ admit: true, reason: '' });

/**
 * BLIS `tier-shed`: when the busiest instance's effective load exceeds `overloadThreshold`,
 * reject requests whose class priority is below `minAdmitPriority`. No instances: admit.
 */
export function createTierShed(params: TierShedParams = {}): AdmissionPolicy {
  const p = parsePolicyParams('admission', 'tier-shed', tierShedParamsSchema, params);
  const map = new SloPriorityMap(p.priorities);
  return {
    name: 'tier-shed',
    admit(request: RequestView, state: RouterState): AdmissionDecision {
      let maxLoad = 0;
      for (const s of state.instances) {
        const l = effectiveLoad(s);
        if (l > maxLoad) maxLoad = l;
      }
      if (maxLoad <= p.overloadThreshold) return ADMITTED;
      const pri = map.priority(request.sloClass);
      if (pri < p.minAdmitPriority) {
        return {
          admit: false,
          reason: `tier-shed: class=${request.sloClass} priority=${pri} < min=${p.minAdmitPriority} load=${maxLoad}`,
        };
      }
      return ADMITTED;
    },
  };
}
