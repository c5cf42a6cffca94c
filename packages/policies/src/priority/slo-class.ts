import * as z from 'zod';
import type { PriorityPolicy } from '../interfaces.js';
import { finiteNumber, parsePolicyParams } from '../params.js';
import {
  DEFAULT_UNKNOWN_SLO_PRIORITY,
  SloPriorityMap,
  sloPrioritiesSchema,
} from '../slo-priority-map.js';
import type { RequestView } from '../views.js';
import { lazySchema } from '../lazy-schema.js';

export const sloClassPriorityParamsSchema = lazySchema(() =>
  z.strictObject({
    /** Overrides of the class -> priority map (BLIS `slo_priorities`). */
    priorities: sloPrioritiesSchema.optional(),
    /** Priority of an empty or unknown class (BLIS: 3, the standard tier). */
    unknownPriority: finiteNumber().default(DEFAULT_UNKNOWN_SLO_PRIORITY),
    /** Optional anti-starvation term per microsecond of age; 0 keeps pure class order. */
    ageWeight: finiteNumber().default(0),
  }),
);
export type SloClassPriorityParams = z.input<typeof sloClassPriorityParamsSchema>;

/**
 * Priority from the SLO class using BLIS's GAIE map (critical 4, standard 3, batch -1,
 * sheddable -2, background -3, empty/unknown 3), plus `ageWeight * (now - arrival)`.
 */
export function createSloClassPriority(params: SloClassPriorityParams = {}): PriorityPolicy {
  const p = parsePolicyParams('priority', 'slo-class', sloClassPriorityParamsSchema, params);
  const map = new SloPriorityMap(p.priorities, p.unknownPriority);
  const ageWeight = p.ageWeight;
  return {
    name: 'slo-class',
    priority: (request: RequestView, nowUs: number) =>
      ageWeight === 0
        ? map.priority(request.sloClass)
        : map.priority(request.sloClass) + ageWeight * (nowUs - request.arrivalUs),
    timeDependent: ageWeight !== 0,
  };
}
