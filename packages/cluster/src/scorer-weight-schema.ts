import * as z from 'zod';

/** One scorer of `weighted` routing; `params` go to the scorer's factory (e.g. prefix-affinity's `lruCapacity`). */
export const ScorerWeightSchema = z
  .object({ name: z.string().min(1), weight: z.number().nonnegative(), params: z.record(z.string(), z.unknown()).optional() })
  .strict();
