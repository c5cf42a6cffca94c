import { resolveAutoscalerSpec } from './autoscaler-spec.js';
import { defaultPolicyRegistry } from './default-registry.js';
import { type PolicyKind, PolicyParamsError } from './errors.js';
import { policyContext } from './factory-context.js';
import { zodIssuesToParamIssues } from './params.js';
import { type PolicyBundleIssue, bundleIssue as issue } from './policy-bundle-issue.js';
import { type PolicyBundle, createPolicyBundleSchema, policyBundleSchema } from './policy-bundle-schema.js';
import { buildSpecs } from './policy-specs.js';
import type { PolicyRegistry } from './registry.js';

// Validation of a whole policy bundle (`--policy-config`): its schema (policy-bundle-schema.ts),
// then each named policy built once with its params, so a bad param is reported at its key.

/** A valid bundle with its warnings, or every issue found. */
export type PolicyBundleResult =
  | { readonly success: true; readonly bundle: PolicyBundle; readonly warnings: readonly string[] }
  | { readonly success: false; readonly issues: readonly PolicyBundleIssue[] };

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
