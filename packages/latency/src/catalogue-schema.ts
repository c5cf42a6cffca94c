import * as z from 'zod';

// The shapes of the catalogue's data files (data/*.json). The files are checked against them by
// test/catalogue-data.test.ts, not at every start-up: the catalogue reads them as they are.

const triple = z.tuple([z.number(), z.number(), z.number()]);

/** data/coefficients.json: BLIS's trained blackbox entries. */
export const CoefficientsFileSchema = z.array(
  z.object({ id: z.string(), gpu: z.string(), tp: z.number().int().positive(), vllmVersion: z.string(), alpha: triple, beta: triple }).strict(),
);

/** data/model-defaults.json: each model's default deployment. */
export const ModelDefaultsFileSchema = z.record(z.string(), z.object({ gpu: z.string(), tp: z.number().int().positive(), vllmVersion: z.string(), hfRepo: z.string().nullable() }).strict());

/** data/workload-presets.json: the length presets, BLIS's field names. */
export const WorkloadPresetsFileSchema = z.record(
  z.string(),
  z
    .object({
      prefix_tokens: z.number().int().nonnegative().optional(),
      prompt_tokens: z.number().int().positive(),
      prompt_tokens_stdev: z.number().nonnegative(),
      prompt_tokens_min: z.number().int().positive(),
      prompt_tokens_max: z.number().int().positive(),
      output_tokens: z.number().int().positive(),
      output_tokens_stdev: z.number().nonnegative(),
      output_tokens_min: z.number().int().positive(),
      output_tokens_max: z.number().int().positive(),
    })
    .strict(),
);
