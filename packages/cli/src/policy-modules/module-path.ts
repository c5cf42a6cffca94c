import type { PolicyKind } from '@blis/policies';

/**
 * Names given as paths load custom policies instead of looking up the registry: ES modules
 * (`.mjs`, `.js`, `.cjs`), or decision trees (`.yaml`/`.yml`).
 */
export function isModulePath(name: string): boolean {
  return name.startsWith('./') || name.startsWith('../') || name.startsWith('/') || /\.(m?js|cjs|ya?ml)$/i.test(name);
}

/** The seven pluggable kinds, as `--policy-param` names them. */
export const MODULE_KINDS: readonly PolicyKind[] = ['admission', 'priority', 'routing', 'scheduler', 'scorer', 'decider', 'autoscaler'];

/** The method a policy of each kind must have (a scheduler needs only its name). */
export const POLICY_METHOD: Readonly<Record<PolicyKind, string | undefined>> = {
  admission: 'admit',
  priority: 'priority',
  routing: 'route',
  scheduler: undefined,
  scorer: 'score',
  decider: 'decide',
  autoscaler: 'evaluate',
};

/** The flag that names each kind's policy on `blis run`. */
export const POLICY_FLAG: Readonly<Record<PolicyKind, string>> = {
  admission: '--admission-policy',
  priority: '--priority-policy',
  routing: '--routing-policy',
  scheduler: '--scheduler',
  scorer: '--routing-scorers',
  decider: '--pd-decider',
  autoscaler: '--autoscaler-policy',
};

/** camelCase flag key of each kind's policy flag, as parseFlags returns it. */
export const POLICY_FLAG_KEY: Readonly<Record<Exclude<PolicyKind, 'scorer'>, string>> = {
  admission: 'admissionPolicy',
  priority: 'priorityPolicy',
  routing: 'routingPolicy',
  scheduler: 'scheduler',
  decider: 'pdDecider',
  autoscaler: 'autoscalerPolicy',
};
