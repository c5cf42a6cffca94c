import type * as z from 'zod';
import type { PreemptionPolicyName } from './interfaces.js';
import type { PolicyBundleIssue } from './policy-bundle-issue.js';
import { bundleIssue as issue, bundlePathText as formatPath } from './policy-bundle-issue.js';
import type { PolicyBundle, admissionSectionSchema } from './policy-bundle-schema.js';
import { DEFAULT_POLICY_NAMES } from './registry.js';

// How a validated bundle and the command line's choices become the policy run at each stage.

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

/** The four stages' specs and where their params came from; `conflicts` collects contradictions. */
export function buildSpecs(
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

