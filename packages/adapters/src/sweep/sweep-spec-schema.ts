import * as z from 'zod';

const scalar = z.union([z.number(), z.string(), z.boolean()]);

/**
 * The values one parameter takes: a list, or a range. A grid needs the range's `step`; a random
 * search draws uniformly from `[min, max]` (from its step points when a step is given).
 */
export const ParameterValuesSchema = z.union([
  z.array(scalar).min(1),
  z
    .strictObject({ min: z.number(), max: z.number(), step: z.number().positive().optional(), integer: z.boolean().default(false) })
    .refine((r) => r.min <= r.max, { message: 'min <= max', path: ['min'] }),
]);

export const SearchSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('grid') }),
    z.strictObject({ kind: z.literal('random'), samples: z.number().int().positive(), seed: z.number().int().default(0) }),
  ])
  .default({ kind: 'grid' });

/**
 * A sweep file (`blis sweep SPEC.yaml`): a base configuration (a @blis/cluster
 * `SimulationConfigInput`, validated with `SimulationConfigSchema`), the parameters to vary as
 * dot paths into it, the seeds each candidate runs with, and the metrics to report.
 */
export const SweepSpecSchema = z.strictObject({
  base: z.record(z.string(), z.unknown()).default({}),
  seeds: z
    .array(z.number().int())
    .min(1)
    .refine((s) => new Set(s).size === s.length, { message: 'distinct seeds' })
    .default([42]),
  search: SearchSchema,
  parameters: z.record(z.string(), ParameterValuesSchema).refine((p) => Object.keys(p).length > 0, { message: 'at least one parameter' }),
  metrics: z.array(z.string().min(1)).min(1).optional(),
});

export type SweepSpecInput = z.input<typeof SweepSpecSchema>;
export type SweepSpec = z.output<typeof SweepSpecSchema>;
export type ParameterValues = z.output<typeof ParameterValuesSchema>;
export type SweepSearch = z.output<typeof SearchSchema>;
/** One parameter value: what a YAML scalar can hold. */
export type ParameterValue = number | string | boolean;
