import * as z from 'zod';
import { EVAL_PROTOCOL } from './protocol.js';

const finite = z.number().refine(Number.isFinite, 'a finite number');
const unit = finite.min(0).max(1);
const numbers = z.record(z.string(), finite);
const issue = z.object({ where: z.string(), expected: z.string(), found: z.string() }).strict();

/**
 * The response, as a schema: what `blis evaluate` promises its callers (every number finite,
 * scores in [0, 1]). Tests check real responses against it, and it is published as JSON Schema.
 */
export const EvalResponseSchema = z
  .object({
    protocol: z.literal(EVAL_PROTOCOL),
    status: z.enum(['ok', 'invalid_candidate', 'sim_error', 'timeout', 'invalid_request']),
    error: z.object({ kind: z.string(), message: z.string(), issues: z.array(issue) }).strict().nullable(),
    combined_score: unit,
    metrics: numbers,
    features: numbers,
    per_scenario: z.array(
      z
        .object({
          id: z.string(),
          score: unit,
          objective_scores: z.record(z.string(), unit),
          metrics: numbers,
          features: numbers,
          feedback: z.string(),
          trace_summary: z.record(z.string(), z.unknown()),
        })
        .strict(),
    ),
    artifacts: z.record(z.string(), z.string()),
  })
  .strict();
