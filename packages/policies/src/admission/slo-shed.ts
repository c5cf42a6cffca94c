import * as z from 'zod';
import type { AdmissionDecision, AdmissionPolicy } from '../interfaces.js';
import { finiteNonNegative, parsePolicyParams } from '../params.js';
import { SloPriorityMap, sloPrioritiesSchema } from '../slo-priority-map.js';
import type { RequestView, RouterState } from '../views.js';
import { lazySchema } from '../lazy-schema.js';

export const sloShedParamsSchema = lazySchema(() =>
  z
    .strictObject({
      /** Saturation at and above which sheddable classes are rejected. */
      threshold: finiteNonNegative().default(1),
      /** Saturation at and above which every class, critical included, is rejected. */
      protectedThreshold: finiteNonNegative().default(2),
      /** Overrides of the SLO class -> priority map (negative priority = sheddable). */
      priorities: sloPrioritiesSchema.optional(),
    })
    .refine((p) => p.protectedThreshold >= p.threshold, {
      error: 'expected protectedThreshold >= threshold',
      path: ['protectedThreshold'],
    }),
);
export type SloShedParams = z.input<typeof sloShedParamsSchema>;

const ADMITTED: AdmissionDecision = Object.freeze({ admit: true, reason: '' });

/**
 * Saturation-driven shedding by SLO class. With `RouterState.saturation` (the flow-control
 * detector's pool saturation) at or above `threshold`, sheddable classes (negative GAIE priority:
 * batch, sheddable, background) are rejected; critical, standard and unknown classes are
 * rejected only once saturation reaches `protectedThreshold`.
 */
export function createSloShed(params: SloShedParams = {}): AdmissionPolicy {
  const p = parsePolicyParams('admission', 'slo-shed', sloShedParamsSchema, params);
  const map = new SloPriorityMap(p.priorities);
  return {
    name: 'slo-shed',
    admit(request: RequestView, state: RouterState): AdmissionDecision {
      const sat = state.saturation;
      if (sat < p.threshold) return ADMITTED;
      const sheddable = map.isSheddable(request.sloClass);
      if (sheddable || sat >= p.protectedThreshold) {
        return {
          admit: false,
          reason: `slo-shed: class=${request.sloClass || 'standard'} saturation=${sat.toFixed(2)}`,
        };
      }
      return ADMITTED;
    },
  };
}
