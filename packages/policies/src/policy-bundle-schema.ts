import * as z from 'zod';
import { defaultPolicyRegistry } from './default-registry.js';
import { type PolicyKind, policyKindLabel } from './errors.js';
import { finiteNonNegative, finitePositive, nonNegativeInt, positiveInt, unitInterval } from './params.js';
import type { PolicyRegistry } from './registry.js';
import { lazySchema } from './lazy-schema.js';

// The BLIS policy YAML (`--policy-config`): `admission`, `routing`, `priority`, `scheduler`,
// `preemption`, `tenant_budgets`, `node_pools`, `autoscaler`, `instance_lifecycle`, with BLIS's
// snake_case field names. Like BLIS, unknown keys are errors. Each policy section also takes a
// free-form `params` map for the parameters of policies BLIS does not have. `autoscaler` and
// `instance_lifecycle` also take keys BLIS lacks (an autoscaler `policy`, replica bounds, a
// cooldown; warm-up and drain settings BLIS documents but its parser refuses): see
// autoscale-bundle.ts for how the three sections become config fields.

const nullAsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null ? undefined : v), schema.optional());

const policyNameField = (what: string) => z.string({ error: `expected ${what} name (a string)` });
const paramsField = lazySchema(() =>
  z.record(z.string(), z.unknown(), {
    error: 'expected a map of parameter names to values',
  }),
);
const zeroOr = (schema: z.ZodType<number>, what: string) =>
  z.number({ error: `expected ${what}` }).superRefine((v, ctx) => {
    if (v !== 0 && !schema.safeParse(v).success)
      ctx.addIssue({ code: 'custom', message: `expected ${what}; found ${v}` });
  });

export const admissionSectionSchema = lazySchema(() =>
  z.strictObject({
    policy: policyNameField('an admission policy').optional(),
    token_bucket_capacity: finitePositive().optional(),
    token_bucket_refill_rate: finitePositive('a finite number > 0 (tokens per second)').optional(),
    tier_shed_threshold: nonNegativeInt().optional(),
    tier_shed_min_priority: z.int({ error: 'expected an integer' }).optional(),
    gaie_qd_threshold: finitePositive().optional(),
    gaie_kv_threshold: finitePositive('a number in (0, 1]')
      .max(1, { error: 'expected a number in (0, 1]' })
      .optional(),
    slo_priorities: z
      .record(z.string(), z.int({ error: 'expected an integer priority' }), {
        error: 'expected a map from SLO class to integer priority',
      })
      .optional(),
    slo_targets: z
      .record(z.string(), nonNegativeInt('a TTFT target in microseconds (integer >= 0)'), {
        error: 'expected a map from SLO class to TTFT target in microseconds',
      })
      .optional(),
    params: paramsField.optional(),
  }),
);

export const scorerEntrySchema = lazySchema(() =>
  z.strictObject({
    name: z.string({ error: 'expected a scorer name' }),
    weight: finitePositive(),
    params: paramsField.optional(),
  }),
);

export const routingSectionSchema = lazySchema(() =>
  z.strictObject({
    policy: policyNameField('a routing policy').optional(),
    scorers: z.array(scorerEntrySchema, { error: 'expected a list of { name, weight }' }).optional(),
    params: paramsField.optional(),
  }),
);

export const prioritySectionSchema = lazySchema(() =>
  z.strictObject({
    policy: policyNameField('a priority policy').optional(),
    params: paramsField.optional(),
  }),
);

export const preemptionSectionSchema = lazySchema(() =>
  z.strictObject({
    policy: z
      .enum(['', 'fcfs', 'priority'], { error: 'expected a preemption policy: fcfs, priority' })
      .optional(),
  }),
);

/**
 * The longest delay (s): the simulated clock counts whole µs exactly up to 2^53 (about 285
 * years). A replica loading for 1e300 s served nothing and the run reported "300/300 completed
 * in 1e+300 simulated s".
 */
const MAX_DELAY_S = Number.MAX_SAFE_INTEGER / 1e6;
const delaySeconds = () => finiteNonNegative('a finite number of seconds >= 0').max(MAX_DELAY_S, { error: `expected at most ${MAX_DELAY_S} seconds (the simulated clock's range of about 285 years)` });

const delaySchema = lazySchema(() =>
  z.strictObject({
    mean: delaySeconds().optional(),
    stddev: delaySeconds().optional(),
  }),
);

/** Nodes of one pool (10,000, a run's instance limit): every node hosts at least one replica. */
export const MAX_POOL_NODES = 10_000;

export const nodePoolSchema = lazySchema(() =>
  z
    .strictObject({
      name: z.string({ error: 'expected a pool name' }).min(1, { error: 'must not be empty' }),
      gpu_type: z.string({ error: 'expected a GPU type' }).min(1, { error: 'must not be empty' }),
      gpus_per_node: positiveInt('an integer >= 1'),
      gpu_memory_gib: finitePositive(),
      initial_nodes: nonNegativeInt().max(MAX_POOL_NODES, { error: `expected at most ${MAX_POOL_NODES} nodes` }).optional(),
      min_nodes: nonNegativeInt().max(MAX_POOL_NODES, { error: `expected at most ${MAX_POOL_NODES} nodes` }).optional(),
      max_nodes: nonNegativeInt().max(MAX_POOL_NODES, { error: `expected at most ${MAX_POOL_NODES} nodes` }),
      provisioning_delay: nullAsAbsent(delaySchema),
      cost_per_hour: finiteNonNegative().optional(),
    })
    .superRefine((np, ctx) => {
      const initial = np.initial_nodes ?? 0;
      const min = np.min_nodes ?? 0;
      if (np.max_nodes < initial) {
        ctx.addIssue({
          code: 'custom',
          path: ['max_nodes'],
          message: `expected max_nodes >= initial_nodes (${initial}), found ${np.max_nodes}`,
        });
      }
      if (min > np.max_nodes) {
        ctx.addIssue({
          code: 'custom',
          path: ['min_nodes'],
          message: `expected min_nodes <= max_nodes (${np.max_nodes}), found ${min}`,
        });
      }
    }),
);

/** WVA reference defaults BLIS applies when an analyzer threshold is 0 (unset). */
const ANALYZER_DEFAULT_SCALE_UP = 0.8;
const ANALYZER_DEFAULT_SCALE_DOWN = 0.4;

export const autoscalerSectionSchema = lazySchema(() =>
  z
    .strictObject({
      interval_us: finiteNonNegative('a number of microseconds >= 0 (0 = disabled)').optional(),
      scale_up_stabilization_window_us: finiteNonNegative('a number of microseconds >= 0').optional(),
      scale_down_stabilization_window_us: finiteNonNegative('a number of microseconds >= 0').optional(),
      hpa_scrape_delay: nullAsAbsent(delaySchema),
      analyzer: nullAsAbsent(
        z.strictObject({
          kv_cache_threshold: zeroOr(
            unitInterval().positive(),
            'a number in (0, 1] (0 = default)',
          ).optional(),
          scale_up_threshold: zeroOr(finitePositive(), 'a number > 0 (0 = default)').optional(),
          scale_down_boundary: zeroOr(finitePositive(), 'a number > 0 (0 = default)').optional(),
          avg_input_tokens: zeroOr(finitePositive(), 'a number > 0 (0 = default)').optional(),
        }),
      ),
      // Ours (BLIS has one autoscaler, no replica bounds and no cooldown).
      policy: policyNameField('an autoscaler').optional(),
      params: paramsField.optional(),
      min_replicas: nonNegativeInt().optional(),
      max_replicas: positiveInt('an integer >= 1').optional(),
      cooldown_us: finiteNonNegative('a number of microseconds >= 0').optional(),
    })
    .superRefine((a, ctx) => {
      const up = a.analyzer?.scale_up_threshold || ANALYZER_DEFAULT_SCALE_UP;
      const down = a.analyzer?.scale_down_boundary || ANALYZER_DEFAULT_SCALE_DOWN;
      if (down >= up) {
        ctx.addIssue({
          code: 'custom',
          path: ['analyzer', a.analyzer?.scale_down_boundary ? 'scale_down_boundary' : 'scale_up_threshold'],
          message: a.analyzer?.scale_down_boundary
            ? `expected scale_down_boundary < the effective scale_up_threshold (${up}), found ${down}`
            : `expected scale_up_threshold > the effective scale_down_boundary (${down}), found ${up}`,
        });
      }
      if (a.min_replicas !== undefined && a.max_replicas !== undefined && a.min_replicas > a.max_replicas) {
        ctx.addIssue({
          code: 'custom',
          path: ['min_replicas'],
          message: `expected min_replicas <= max_replicas (${a.max_replicas}), found ${a.min_replicas}`,
        });
      }
    }),
);

/** BLIS's drain policy names (its docs spell them upper-case); any case is accepted. */
const DRAIN_POLICIES = ['wait', 'immediate', 'redirect'] as const;
const drainPolicySchema = lazySchema(() =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v === '' ? undefined : v.toLowerCase()) : v),
    z.enum(DRAIN_POLICIES, { error: 'expected a drain policy: WAIT, IMMEDIATE or REDIRECT' }).optional(),
  ),
);

export const instanceLifecycleSectionSchema = lazySchema(() =>
  z.strictObject({
    loading_delay: nullAsAbsent(delaySchema),
    warm_start_initial_instances: z.boolean({ error: 'expected true or false' }).optional(),
    // BLIS documents these (its InstanceLifecycleConfig) but its bundle parser refuses them.
    warm_up_request_count: nonNegativeInt().optional(),
    warm_up_ttft_factor: zeroOr(
      z.number().min(1),
      'a number >= 1 (0 = default, 1)',
    ).optional(),
    drain_policy: drainPolicySchema,
    // Ours: a time limit on warming up, and the implicit node pool's provisioning delay.
    warm_up_duration: finiteNonNegative('a finite number of seconds >= 0').optional(),
    provisioning_delay: nullAsAbsent(delaySchema),
  }),
);

const bundleShape = lazySchema(() =>
  z.strictObject({
    admission: nullAsAbsent(admissionSectionSchema),
    routing: nullAsAbsent(routingSectionSchema),
    priority: nullAsAbsent(prioritySectionSchema),
    scheduler: nullAsAbsent(policyNameField('a scheduler')),
    preemption: nullAsAbsent(preemptionSectionSchema),
    tenant_budgets: nullAsAbsent(
      z.record(z.string(), unitInterval('a share of cluster capacity in [0, 1]'), {
        error: 'expected a map from tenant id to a share in [0, 1]',
      }),
    ),
    node_pools: nullAsAbsent(z.array(nodePoolSchema, { error: 'expected a list of node pools' })),
    autoscaler: nullAsAbsent(autoscalerSectionSchema),
    instance_lifecycle: nullAsAbsent(instanceLifecycleSectionSchema),
  }),
);

/** A validated policy bundle, field names as in the YAML. */
export type PolicyBundle = z.output<typeof bundleShape>;

/**
 * The bundle schema checked against `registry`: policy, scheduler and scorer names must be
 * registered ("" means the default, as in BLIS) and scorers may not repeat.
 */
export function createPolicyBundleSchema(registry: PolicyRegistry = defaultPolicyRegistry) {
  return bundleShape.superRefine((b, ctx) => {
    const checkName = (kind: PolicyKind, name: string | undefined, path: (string | number)[]) => {
      if (name === undefined || name === '' || registry.has(kind, name)) return;
      ctx.addIssue({
        code: 'custom',
        path,
        message: `unknown ${policyKindLabel(kind)} "${name}"; valid: ${registry.names(kind).join(', ') || 'none registered'}`,
      });
    };
    checkName('admission', b.admission?.policy, ['admission', 'policy']);
    checkName('routing', b.routing?.policy, ['routing', 'policy']);
    checkName('priority', b.priority?.policy, ['priority', 'policy']);
    checkName('scheduler', b.scheduler, ['scheduler']);
    checkName('autoscaler', b.autoscaler?.policy, ['autoscaler', 'policy']);
    const pools = new Set<string>();
    b.node_pools?.forEach((np, i) => {
      if (pools.has(np.name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['node_pools', i, 'name'],
          message: `duplicate node pool name "${np.name}"; each pool name may appear at most once`,
        });
      }
      pools.add(np.name);
    });
    const seen = new Set<string>();
    b.routing?.scorers?.forEach((s, i) => {
      checkName('scorer', s.name, ['routing', 'scorers', i, 'name']);
      if (s.name === '') {
        ctx.addIssue({
          code: 'custom',
          path: ['routing', 'scorers', i, 'name'],
          message: 'expected a scorer name, found ""',
        });
      }
      if (seen.has(s.name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['routing', 'scorers', i, 'name'],
          message: `duplicate scorer "${s.name}"; each scorer may appear at most once`,
        });
      }
      seen.add(s.name);
    });
  });
}

/** The bundle schema against the default registry (names are looked up at parse time). */
export const policyBundleSchema = lazySchema(() =>
  createPolicyBundleSchema(),
);
