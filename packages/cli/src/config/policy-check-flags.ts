import type { SimulationRuntime } from '@blis/cluster';

/** The budget per decision of a custom policy module when `--policy-budget-ms` is not given. */
export const DEFAULT_POLICY_BUDGET_MS = 1000;

/**
 * What `--check-policies` and `--policy-budget-ms` ask of simulate(). The module path each custom
 * policy came from (`policySources`) comes with the loaded modules (policy-modules/).
 */
export function policyCheckRuntime(flags: Record<string, unknown>): Pick<SimulationRuntime, 'checkPolicies' | 'policyBudgetMs'> {
  return {
    checkPolicies: flags.checkPolicies === true,
    policyBudgetMs: (flags.policyBudgetMs as number | undefined) ?? DEFAULT_POLICY_BUDGET_MS,
  };
}
