import * as z from 'zod';
import { GoodputSloTargetsSchema } from '../goodput/goodput-targets.js';
import { MAX_TOKENS_PER_REQUEST } from '../request-limits.js';
import { lazySchema } from '@blis/policies/internal';

/**
 * BLIS's `inference_perf:` section of a v2 workload spec (sim/workload/inference_perf.go): the
 * compact form of an inference-perf benchmark, a list of rate stages and a shared-prefix
 * population of `num_unique_system_prompts × num_users_per_system_prompt` users. The limits are
 * BLIS's own validation rules; the token lengths also get ours (per-request token limit).
 */
const count = lazySchema(() =>
  z.number().int().positive(),
);
const length = lazySchema(() =>
  z.number().int().nonnegative().max(MAX_TOKENS_PER_REQUEST),
);

export const InferencePerfStageSchema = lazySchema(() =>
  z.strictObject({
    /** Requests per second during the stage. */
    rate: z.number().positive(),
    /** Whole seconds. */
    duration: z.number().int().positive(),
  }),
);

export const InferencePerfSchema = lazySchema(() =>
  z.strictObject({
    stages: z.array(InferencePerfStageSchema).min(1),
    shared_prefix: z.strictObject({
      num_unique_system_prompts: count,
      num_users_per_system_prompt: count,
      system_prompt_len: length,
      question_len: length,
      output_len: length,
      enable_multi_turn_chat: z.boolean().default(false),
    }),
  }),
);

/** The whole spec when it carries `inference_perf` instead of `clients` (BLIS: the two exclude each other). */
export const InferencePerfSpecSchema = lazySchema(() =>
  z.strictObject({
    // BLIS's own example writes version "1" and upgrades it (UpgradeV1ToV2); either reads the same.
    version: z.union([z.literal('1'), z.literal(1), z.literal('2'), z.literal(2)]).transform(() => '2' as const),
    // As a spec's: 0 when the file has none (Go's zero value), unless --seed is given.
    seed: z.number().int().default(0),
    category: z.string().default(''),
    /** Ignored as BLIS ignores it: the stages' rates are the truth (BLIS warns when they differ). */
    aggregate_rate: z.number().nonnegative().optional(),
    num_requests: count.optional(),
    horizon: z.number().positive().optional(),
    inference_perf: InferencePerfSchema,
    /** Goodput thresholds by SLO class, as a spec with clients has them (the stages' clients are `standard`). */
    goodput_slo_targets: GoodputSloTargetsSchema.optional(),
  }),
);

export type InferencePerfSection = z.output<typeof InferencePerfSchema>;
export type InferencePerfStage = z.output<typeof InferencePerfStageSchema>;
export type InferencePerfSpec = z.output<typeof InferencePerfSpecSchema>;
