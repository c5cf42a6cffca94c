import * as z from 'zod';
import { MAX_TOKENS_PER_REQUEST } from './request-limits.js';

const pos = z.number().positive();
const nonNeg = z.number().nonnegative();

/** A length a spec states outright (a constant, a mean, a lower bound): at most MAX_TOKENS_PER_REQUEST. */
const tokens = pos.max(MAX_TOKENS_PER_REQUEST);
/**
 * A clamp's upper bound may pass the tokens-per-request limit (lengths drawn are checked against
 * it), but not 2^53: past it a length is no longer an exact integer, and 1e300 is no bound.
 */
const clampMax = pos.max(Number.MAX_SAFE_INTEGER);
const bounded = { min: nonNeg.max(MAX_TOKENS_PER_REQUEST).optional(), max: clampMax.optional() };
export const DistributionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('gaussian'), params: z.strictObject({ mean: tokens, std_dev: nonNeg, min: nonNeg.max(MAX_TOKENS_PER_REQUEST), max: clampMax }) }),
  z.strictObject({ type: z.literal('exponential'), params: z.strictObject({ mean: tokens, ...bounded }) }),
  z.strictObject({ type: z.literal('lognormal'), params: z.strictObject({ mu: z.number(), sigma: nonNeg, ...bounded }) }),
  z.strictObject({
    type: z.literal('pareto_lognormal'),
    params: z.strictObject({ alpha: pos, xm: pos, mu: z.number(), sigma: nonNeg, mix_weight: z.number().min(0).max(1), ...bounded }),
  }),
  z.strictObject({ type: z.literal('constant'), params: z.strictObject({ value: tokens }) }),
  z.strictObject({
    type: z.literal('empirical'),
    params: z
      .strictObject({ file: z.string().min(1).optional(), column: z.string().optional(), values: z.array(tokens).min(1).optional() })
      .refine((p) => (p.file === undefined) !== (p.values === undefined), { message: 'exactly one of file or values' }),
  }),
]);
