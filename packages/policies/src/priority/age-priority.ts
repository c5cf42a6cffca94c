import * as z from 'zod';
import type { PriorityPolicy } from '../interfaces.js';
import { finiteNumber, parsePolicyParams } from '../params.js';
import type { RequestView } from '../views.js';
import { lazySchema } from '../lazy-schema.js';

export const agePriorityParamsSchema = lazySchema(() =>
  z.strictObject({
    base: finiteNumber().default(0),
    /** Priority gained per microsecond of age (BLIS default 1e-6: +1 per second waited). */
    ageWeight: finiteNumber().default(1e-6),
  }),
);
export type AgePriorityParams = z.input<typeof agePriorityParamsSchema>;

/** BLIS `slo-based`: `base + ageWeight * (now - arrival)`; older requests first. */
export function createSloBasedPriority(params: AgePriorityParams = {}): PriorityPolicy {
  const { base, ageWeight } = parsePolicyParams(
    'priority',
    'slo-based',
    agePriorityParamsSchema,
    params,
  );
  return {
    name: 'slo-based',
    priority: (request: RequestView, nowUs: number) =>
      base + ageWeight * (nowUs - request.arrivalUs),
    timeDependent: ageWeight !== 0,
  };
}

/** BLIS `inverted-slo` (pathological): `base - ageWeight * (now - arrival)`; starves the old. */
export function createInvertedSloPriority(params: AgePriorityParams = {}): PriorityPolicy {
  const { base, ageWeight } = parsePolicyParams(
    'priority',
    'inverted-slo',
    agePriorityParamsSchema,
    params,
  );
  return {
    name: 'inverted-slo',
    priority: (request: RequestView, nowUs: number) =>
      base - ageWeight * (nowUs - request.arrivalUs),
    timeDependent: ageWeight !== 0,
  };
}
