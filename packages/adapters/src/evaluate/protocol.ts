import * as z from 'zod';
import type { LocatedIssue } from '../located-error.js';

/** The protocol name every request and response carries; a new major version gets a new name. */
export const EVAL_PROTOCOL = 'blis-eval/1';

/**
 * Largest request `blis evaluate` reads (16 MiB, twice a workload spec's limit): a request is parsed
 * whole, and what it holds inline (a policy, a spec, a module) is a few kilobytes.
 */
export const EVAL_REQUEST_MAX_BYTES = 16 * 1024 * 1024;

/** Policy components a `components` candidate may replace, one text each. */
export const COMPONENT_NAMES = ['policy', 'admission', 'priority', 'routing', 'scheduler', 'autoscaler'] as const;
export type ComponentName = (typeof COMPONENT_NAMES)[number];

/** Policy kinds a `policy-module` may implement (found from the object's methods when not given). */
export const MODULE_POLICY_KINDS = ['admission', 'priority', 'routing', 'decider', 'autoscaler'] as const;
export type ModulePolicyKind = (typeof MODULE_POLICY_KINDS)[number];

const nonEmptyText = z.string().min(1, 'a non-empty text');

export const CandidateSchema = z.discriminatedUnion('kind', [
  /** The base configuration as it is: the baseline a search compares against. */
  z.object({ kind: z.literal('baseline') }).strict(),
  /** A policy bundle (BLIS `--policy-config` YAML) applied over the base configuration. */
  z.object({ kind: z.literal('policy-yaml'), text: nonEmptyText }).strict(),
  /** An ES module (TypeScript or JavaScript) whose default export is a policy factory. */
  z
    .object({
      kind: z.literal('policy-module'),
      text: nonEmptyText,
      policy_kind: z.enum(MODULE_POLICY_KINDS).optional(),
      language: z.enum(['typescript', 'javascript']).default('typescript'),
    })
    .strict(),
  /** Named texts (GEPA's candidate): a bundle section, a whole bundle (`policy`) or a decision tree each. */
  z
    .object({
      kind: z.literal('components'),
      components: z.record(z.string(), z.string()).superRefine((c, ctx) => {
        const keys = Object.keys(c);
        if (keys.length === 0) ctx.addIssue({ code: 'custom', message: `expected at least one of ${COMPONENT_NAMES.join(', ')}, received none` });
        for (const k of keys)
          if (!(COMPONENT_NAMES as readonly string[]).includes(k))
            ctx.addIssue({ code: 'custom', path: [k], message: `expected a component name (${COMPONENT_NAMES.join(', ')}), received ${JSON.stringify(k)}` });
      }) as z.ZodType<Partial<Record<ComponentName, string>>>,
    })
    .strict(),
]);
export type Candidate = z.output<typeof CandidateSchema>;

export const ScenarioSchema = z
  .object({
    id: z.string().min(1),
    /** A @blis/cluster workload source (`synthetic`, `spec` with `path` or an inline `spec`, `trace`). */
    workload: z.record(z.string(), z.unknown()).describe('a @blis/cluster workload source: the `workload` field of simulation-config.schema.json'),
    /** Master seeds; the scenario's metrics are the mean over them. */
    seeds: z.array(z.number().int().nonnegative()).min(1).default([42]),
    horizon_us: z.number().int().positive().optional(),
    slo: z
      .object({ ttft_us: z.number().int().nonnegative().optional(), e2e_us: z.number().int().nonnegative().optional() })
      .strict()
      .optional(),
    /** Fields of the simulation config that differ in this scenario (e.g. `numInstances`). */
    config: z.record(z.string(), z.unknown()).describe('fields of simulation-config.schema.json that this scenario overrides').optional(),
    /** Weight of this scenario in `combined_score` (default 1). */
    weight: z.number().positive().default(1),
  })
  .strict();
export type Scenario = z.output<typeof ScenarioSchema>;

export const EvalRequestSchema = z
  .object({
    protocol: z.literal(EVAL_PROTOCOL),
    candidate: CandidateSchema,
    /** A @blis/cluster SimulationConfigInput (camelCase); scenarios supply the workload. */
    base_config: z.record(z.string(), z.unknown()).describe('a @blis/cluster SimulationConfigInput: see @blis/cluster/simulation-config.schema.json').default({}),
    scenarios: z.array(ScenarioSchema).min(1),
    objectives: z
      .object({ weights: z.record(z.string(), z.number().nonnegative()) })
      .strict()
      .default({ weights: { p99_ttft: 0.5, throughput: 0.5 } }),
    /** `summary`: the decision-trace summary becomes feedback; `decisions` adds the anomaly report. */
    trace: z.enum(['none', 'summary', 'decisions']).default('summary'),
    /** Wall-clock budget for the whole request; past it the answer is `status: timeout`. */
    max_wall_ms: z.number().int().positive().default(240_000),
  })
  .strict();
export type EvalRequest = z.input<typeof EvalRequestSchema>;
export type ParsedEvalRequest = z.output<typeof EvalRequestSchema>;

/** `invalid_request` only in persistent mode (`--serve`), where every line must get an answer. */
export type EvalStatus = 'ok' | 'invalid_candidate' | 'sim_error' | 'timeout' | 'invalid_request';

/** One located problem of a candidate or a request; `where` is a component, a field path, `file:line`. */
export type EvalIssue = LocatedIssue;

export interface EvalFailure {
  /** `invalid_candidate`, `sim_error`, `timeout` or `invalid_request`. */
  kind: string;
  message: string;
  issues: EvalIssue[];
}

export interface ScenarioResult {
  id: string;
  score: number;
  /** Normalised value (in [0, 1], higher is better) of each weighted objective. */
  objective_scores: Record<string, number>;
  metrics: Record<string, number>;
  features: Record<string, number>;
  feedback: string;
  trace_summary: Record<string, unknown>;
}

export interface EvalResponse {
  protocol: typeof EVAL_PROTOCOL;
  status: EvalStatus;
  error: EvalFailure | null;
  combined_score: number;
  metrics: Record<string, number>;
  features: Record<string, number>;
  per_scenario: ScenarioResult[];
  artifacts: Record<string, string>;
}
