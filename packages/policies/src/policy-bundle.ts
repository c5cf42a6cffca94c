import * as z from 'zod';
import { resolveAutoscalerSpec } from './autoscaler-spec.js';
import { defaultPolicyRegistry } from './default-registry.js';
import { formatParamPath, type PolicyKind, PolicyParamsError, policyKindLabel } from './errors.js';
import { policyContext } from './factory-context.js';
import type { PreemptionPolicyName } from './interfaces.js';
import {
  finiteNonNegative,
  finitePositive,
  nonNegativeInt,
  positiveInt,
  unitInterval,
  zodIssuesToParamIssues,
} from './params.js';
import { DEFAULT_POLICY_NAMES, type PolicyRegistry } from './registry.js';

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
const paramsField = z.record(z.string(), z.unknown(), {
  error: 'expected a map of parameter names to values',
});
const zeroOr = (schema: z.ZodType<number>, what: string) =>
  z.number({ error: `expected ${what}` }).superRefine((v, ctx) => {
    if (v !== 0 && !schema.safeParse(v).success)
      ctx.addIssue({ code: 'custom', message: `expected ${what}; found ${v}` });
  });

export const admissionSectionSchema = z.strictObject({
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
});

export const scorerEntrySchema = z.strictObject({
  name: z.string({ error: 'expected a scorer name' }),
  weight: finitePositive(),
  params: paramsField.optional(),
});

export const routingSectionSchema = z.strictObject({
  policy: policyNameField('a routing policy').optional(),
  scorers: z.array(scorerEntrySchema, { error: 'expected a list of { name, weight }' }).optional(),
  params: paramsField.optional(),
});

export const prioritySectionSchema = z.strictObject({
  policy: policyNameField('a priority policy').optional(),
  params: paramsField.optional(),
});

export const preemptionSectionSchema = z.strictObject({
  policy: z
    .enum(['', 'fcfs', 'priority'], { error: 'expected a preemption policy: fcfs, priority' })
    .optional(),
});

const delaySchema = z.strictObject({
  mean: finiteNonNegative('a finite number of seconds >= 0').optional(),
  stddev: finiteNonNegative('a finite number of seconds >= 0').optional(),
});

export const nodePoolSchema = z
  .strictObject({
    name: z.string({ error: 'expected a pool name' }).min(1, { error: 'must not be empty' }),
    gpu_type: z.string({ error: 'expected a GPU type' }).min(1, { error: 'must not be empty' }),
    gpus_per_node: positiveInt('an integer >= 1'),
    gpu_memory_gib: finitePositive(),
    initial_nodes: nonNegativeInt().optional(),
    min_nodes: nonNegativeInt().optional(),
    max_nodes: nonNegativeInt(),
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
  });

/** WVA reference defaults BLIS applies when an analyzer threshold is 0 (unset). */
const ANALYZER_DEFAULT_SCALE_UP = 0.8;
const ANALYZER_DEFAULT_SCALE_DOWN = 0.4;

export const autoscalerSectionSchema = z
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
  });

/** BLIS's drain policy names (its docs spell them upper-case); any case is accepted. */
const DRAIN_POLICIES = ['wait', 'immediate', 'redirect'] as const;
const drainPolicySchema = z.preprocess(
  (v) => (typeof v === 'string' ? (v === '' ? undefined : v.toLowerCase()) : v),
  z.enum(DRAIN_POLICIES, { error: 'expected a drain policy: WAIT, IMMEDIATE or REDIRECT' }).optional(),
);

export const instanceLifecycleSectionSchema = z.strictObject({
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
});

const bundleShape = z.strictObject({
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
});

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
export const policyBundleSchema = createPolicyBundleSchema();

/** One problem in a bundle: where (`routing.scorers[0].weight`), and what was wrong. */
export interface PolicyBundleIssue {
  readonly path: readonly (string | number)[];
  readonly pathText: string;
  readonly message: string;
}

export type PolicyBundleResult =
  | { readonly success: true; readonly bundle: PolicyBundle; readonly warnings: readonly string[] }
  | { readonly success: false; readonly issues: readonly PolicyBundleIssue[] };

/** A named policy and the params its factory will receive. */
export interface PolicySpec {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** Command-line choices, which win over the bundle (BLIS: flags override YAML). */
export interface PolicyOverrides {
  readonly admission?: {
    readonly name?: string;
    readonly params?: Readonly<Record<string, unknown>>;
  };
  readonly routing?: {
    readonly name?: string;
    readonly params?: Readonly<Record<string, unknown>>;
  };
  readonly priority?: {
    readonly name?: string;
    readonly params?: Readonly<Record<string, unknown>>;
  };
  readonly scheduler?: { readonly name?: string };
  readonly preemption?: PreemptionPolicyName;
}

/** What the cluster builds: one spec per stage, the preemption policy, and ignored settings. */
export interface ResolvedPolicySpecs {
  readonly admission: PolicySpec;
  readonly routing: PolicySpec;
  readonly priority: PolicySpec;
  readonly scheduler: PolicySpec;
  readonly preemption: PreemptionPolicyName;
  /** Bundle settings that do not apply to the resolved policies (BLIS ignores them silently). */
  readonly warnings: readonly string[];
}

type Origin = readonly (string | number)[];
interface Built {
  spec: PolicySpec;
  /** Where each top-level param key came from in the bundle, for error paths. */
  origins: Map<string, Origin>;
}

// BLIS's admission fields, the params key they become, and the policies that read them.
const ADMISSION_FIELDS: readonly [
  keyof z.output<typeof admissionSectionSchema>,
  string,
  readonly string[],
][] = [
  ['token_bucket_capacity', 'capacity', ['token-bucket']],
  ['token_bucket_refill_rate', 'refillRate', ['token-bucket']],
  ['tier_shed_threshold', 'overloadThreshold', ['tier-shed']],
  ['tier_shed_min_priority', 'minAdmitPriority', ['tier-shed']],
  ['gaie_qd_threshold', 'qdThreshold', ['gaie-legacy']],
  ['gaie_kv_threshold', 'kvThreshold', ['gaie-legacy']],
  ['slo_priorities', 'priorities', ['tier-shed', 'gaie-legacy', 'slo-shed']],
];

/**
 * Resolves which policy runs at each stage and with which params: a name from `overrides`,
 * else from the bundle, else BLIS's default; params from the bundle's BLIS fields (e.g.
 * `token_bucket_capacity` -> `capacity`) and the section's `params` (only when the section names
 * the same policy), with `overrides.*.params` on top.
 */
export function resolvePolicySpecs(
  bundle: PolicyBundle = {},
  overrides: PolicyOverrides = {},
): ResolvedPolicySpecs {
  const warnings: string[] = [];
  const specs = buildSpecs(bundle, overrides, warnings, []);
  return {
    admission: specs.admission.spec,
    routing: specs.routing.spec,
    priority: specs.priority.spec,
    scheduler: specs.scheduler.spec,
    preemption: overrides.preemption ?? (bundle.preemption?.policy || 'fcfs'),
    warnings,
  };
}

function buildSpecs(
  bundle: PolicyBundle,
  overrides: PolicyOverrides,
  warnings: string[],
  conflicts: PolicyBundleIssue[],
): Record<'admission' | 'routing' | 'priority' | 'scheduler', Built> {
  const pick = (override: string | undefined, fromBundle: string | undefined, fallback: string) =>
    override || fromBundle || fallback;

  const sectionParams = (
    section: 'admission' | 'routing' | 'priority',
    sectionPolicy: string | undefined,
    resolved: string,
    params: Readonly<Record<string, unknown>> | undefined,
    into: Record<string, unknown>,
    origins: Map<string, Origin>,
  ) => {
    if (params === undefined) return;
    if (sectionPolicy && sectionPolicy !== resolved) {
      warnings.push(
        `${section}.params ignored: they belong to "${sectionPolicy}", but "${resolved}" runs`,
      );
      return;
    }
    for (const [k, v] of Object.entries(params)) {
      if (origins.has(k)) {
        conflicts.push(
          issue(
            [section, 'params', k],
            `"${k}" is also set by ${formatPath(origins.get(k) ?? [])}; set it once`,
          ),
        );
        continue;
      }
      into[k] = v;
      origins.set(k, [section, 'params', k]);
    }
  };

  // Admission
  const a = bundle.admission ?? {};
  const admissionName = pick(overrides.admission?.name, a.policy, DEFAULT_POLICY_NAMES.admission);
  const admissionParams: Record<string, unknown> = {};
  const admissionOrigins = new Map<string, Origin>();
  for (const [field, key, users] of ADMISSION_FIELDS) {
    const value = a[field];
    if (value === undefined) continue;
    if (!users.includes(admissionName)) {
      warnings.push(
        `admission.${field} ignored: admission policy "${admissionName}" does not use it`,
      );
      continue;
    }
    admissionParams[key] = value;
    admissionOrigins.set(key, ['admission', field]);
  }
  sectionParams('admission', a.policy, admissionName, a.params, admissionParams, admissionOrigins);

  // Routing
  const r = bundle.routing ?? {};
  const routingName = pick(overrides.routing?.name, r.policy, DEFAULT_POLICY_NAMES.routing);
  const routingParams: Record<string, unknown> = {};
  const routingOrigins = new Map<string, Origin>();
  if (r.scorers !== undefined) {
    if (routingName === 'weighted') {
      routingParams.scorers = r.scorers;
      routingOrigins.set('scorers', ['routing', 'scorers']);
    } else {
      warnings.push(`routing.scorers ignored: routing policy "${routingName}" is not weighted`);
    }
  }
  sectionParams('routing', r.policy, routingName, r.params, routingParams, routingOrigins);

  // Priority
  const p = bundle.priority ?? {};
  const priorityName = pick(overrides.priority?.name, p.policy, DEFAULT_POLICY_NAMES.priority);
  const priorityParams: Record<string, unknown> = {};
  const priorityOrigins = new Map<string, Origin>();
  sectionParams('priority', p.policy, priorityName, p.params, priorityParams, priorityOrigins);
  // BLIS keeps the class -> priority map under admission; slo-class priority shares it.
  if (
    priorityName === 'slo-class' &&
    a.slo_priorities !== undefined &&
    !priorityOrigins.has('priorities')
  ) {
    priorityParams.priorities = a.slo_priorities;
    priorityOrigins.set('priorities', ['admission', 'slo_priorities']);
  }

  // Settings BLIS reads for features this simulator does not model yet: accepted so that BLIS
  // files load unchanged, but named, because they change nothing here. (`node_pools`,
  // `autoscaler` and `instance_lifecycle` become config fields: see autoscale-bundle.ts.)
  if (bundle.tenant_budgets !== undefined) warnings.push('tenant_budgets ignored: not simulated by this version');
  if (a.slo_targets !== undefined) warnings.push('admission.slo_targets ignored: not simulated by this version');

  const withOverride = (
    base: Record<string, unknown>,
    extra: Readonly<Record<string, unknown>> | undefined,
  ) => (extra === undefined ? base : Object.assign(base, extra));

  return {
    admission: {
      spec: {
        name: admissionName,
        params: withOverride(admissionParams, overrides.admission?.params),
      },
      origins: admissionOrigins,
    },
    routing: {
      spec: {
        name: routingName,
        params: withOverride(routingParams, overrides.routing?.params),
      },
      origins: routingOrigins,
    },
    priority: {
      spec: {
        name: priorityName,
        params: withOverride(priorityParams, overrides.priority?.params),
      },
      origins: priorityOrigins,
    },
    scheduler: {
      spec: {
        name: pick(overrides.scheduler?.name, bundle.scheduler, DEFAULT_POLICY_NAMES.scheduler),
        params: {},
      },
      origins: new Map(),
    },
  };
}

/**
 * Validates a parsed YAML/JSON object as a BLIS policy bundle. Checks structure, names against
 * `registry`, and each named policy's parameters (by building it once with a throwaway context).
 * Returns the bundle and any warnings, or every issue with its path. Text parsing (and line
 * numbers) is the caller's job.
 */
export function parsePolicyBundle(
  input: unknown,
  registry: PolicyRegistry = defaultPolicyRegistry,
): PolicyBundleResult {
  const value = input === null || input === undefined ? {} : input;
  const schema =
    registry === defaultPolicyRegistry ? policyBundleSchema : createPolicyBundleSchema(registry);
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = zodIssuesToParamIssues(parsed.error.issues, value).map((i) =>
      issue(i.path, i.message),
    );
    return { success: false, issues };
  }
  const bundle = parsed.data;
  const warnings: string[] = [];
  const issues: PolicyBundleIssue[] = [];
  const built = buildSpecs(bundle, {}, warnings, issues);
  const stages: [keyof typeof built, PolicyKind, boolean][] = [
    [
      'admission',
      'admission',
      bundle.admission?.policy !== undefined || bundle.admission?.params !== undefined,
    ],
    [
      'routing',
      'routing',
      bundle.routing?.policy !== undefined ||
        bundle.routing?.params !== undefined ||
        bundle.routing?.scorers !== undefined,
    ],
    [
      'priority',
      'priority',
      bundle.priority?.policy !== undefined || bundle.priority?.params !== undefined,
    ],
    ['scheduler', 'scheduler', bundle.scheduler !== undefined],
  ];
  const ctx = policyContext();
  for (const [stage, kind, named] of stages) {
    if (!named) continue;
    const { spec, origins } = built[stage];
    try {
      registry.factory(kind, spec.name)({ ...ctx, params: spec.params });
    } catch (err) {
      if (!(err instanceof PolicyParamsError)) {
        issues.push(issue([stage], err instanceof Error ? err.message : String(err)));
        continue;
      }
      for (const pi of err.issues) {
        const [head, ...rest] = pi.path;
        const origin = typeof head === 'string' ? origins.get(head) : undefined;
        const path = origin ? [...origin, ...rest] : [stage, 'params', ...pi.path];
        issues.push(issue(path, pi.message));
      }
    }
  }
  if (bundle.autoscaler !== undefined) checkAutoscaler(bundle, registry, warnings, issues);
  if (issues.length > 0) return { success: false, issues };
  return { success: true, bundle, warnings };
}

/**
 * Builds the bundle's autoscaler once with its params (the analyzer's thresholds and
 * `autoscaler.params`), so that a bad param is reported at its key. An autoscaler the registry
 * does not have is skipped here: a named one is already an issue, the default one is the
 * simulation's to report.
 */
function checkAutoscaler(
  bundle: PolicyBundle,
  registry: PolicyRegistry,
  warnings: string[],
  issues: PolicyBundleIssue[],
): void {
  const conflicts: { path: readonly (string | number)[]; message: string }[] = [];
  const spec = resolveAutoscalerSpec(bundle.autoscaler, undefined, warnings, conflicts);
  for (const c of conflicts) issues.push(issue(c.path, c.message));
  if (conflicts.length > 0 || !registry.has('autoscaler', spec.name)) return;
  try {
    registry.factory('autoscaler', spec.name)({ ...policyContext(), params: spec.params });
  } catch (err) {
    if (!(err instanceof PolicyParamsError)) {
      issues.push(issue(['autoscaler'], err instanceof Error ? err.message : String(err)));
      return;
    }
    for (const pi of err.issues) {
      const [head, ...rest] = pi.path;
      const origin = typeof head === 'string' ? spec.origins.get(head) : undefined;
      issues.push(issue(origin ? [...origin, ...rest] : ['autoscaler', 'params', ...pi.path], pi.message));
    }
  }
}

function issue(path: readonly (string | number)[], message: string): PolicyBundleIssue {
  return { path, pathText: formatPath(path), message };
}

function formatPath(path: readonly (string | number)[]): string {
  return path.length === 0 ? '(root)' : formatParamPath(path, '');
}
