import type { SimulationRuntime } from '@blis/cluster';
import type { PolicyKind } from '@blis/policies';
import { isModulePath } from './custom-policy.js';

/** The budget per decision of a custom policy module when `--policy-budget-ms` is not given. */
export const DEFAULT_POLICY_BUDGET_MS = 1000;

/** Each policy flag that may name a module, and the kind of policy it loads. */
const MODULE_FLAGS: readonly (readonly [string, PolicyKind])[] = [
  ['admissionPolicy', 'admission'],
  ['priorityPolicy', 'priority'],
  ['routingPolicy', 'routing'],
  ['scheduler', 'scheduler'],
  ['pdDecider', 'decider'],
  ['autoscalerPolicy', 'autoscaler'],
];

/**
 * What `--check-policies` and `--policy-budget-ms` ask of simulate(), with the module path each
 * custom policy came from so that its errors name it.
 */
export function policyCheckRuntime(flags: Record<string, unknown>): Pick<SimulationRuntime, 'checkPolicies' | 'policyBudgetMs' | 'policySources'> {
  const sources: Partial<Record<PolicyKind, string>> = {};
  for (const [flag, kind] of MODULE_FLAGS) {
    const v = flags[flag];
    if (typeof v === 'string' && isModulePath(v)) sources[kind] = v;
  }
  return {
    checkPolicies: flags.checkPolicies === true,
    policyBudgetMs: (flags.policyBudgetMs as number | undefined) ?? DEFAULT_POLICY_BUDGET_MS,
    policySources: sources,
  };
}
