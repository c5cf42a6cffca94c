import * as z from 'zod';
import type { PriorityPolicy } from '../interfaces.js';
import { finiteNumber, parsePolicyParams } from '../params.js';
import { lazySchema } from '../lazy-schema.js';

export const constantPriorityParamsSchema = lazySchema(() =>
  z.strictObject({
    score: finiteNumber().default(0),
  }),
);
export type ConstantPriorityParams = z.input<typeof constantPriorityParamsSchema>;

/** The same score for every request (BLIS default, score 0). */
export function createConstantPriority(params: ConstantPriorityParams = {}): PriorityPolicy {
  const { score } = parsePolicyParams('priority', 'constant', constantPriorityParamsSchema, params);
  return { name: 'constant', priority: () => score, timeDependent: false };
}
