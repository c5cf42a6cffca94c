import { DEFAULT_SCORER_CONFIGS } from '@blis/policies';
import type { SimulationConfig } from './config-schema.js';

/** Names of policies loaded from modules, which the config does not hold. */
export interface CustomPolicyNames {
  /** A P/D decider loaded from a module. */
  customDecider?: string;
  /** An autoscaler loaded from a module. */
  customAutoscaler?: string;
  /** A routing policy object that replaced `config.routing`. */
  customRouting?: string;
}

/**
 * The policy of each kind a run uses, by name (routing with its scorer weights), as the trace
 * header and `blis run --log info` report them; the P/D decider and the autoscaler only when
 * the run has them.
 */
export function activePolicies(config: SimulationConfig, names: CustomPolicyNames = {}): Record<string, string> {
  const r = config.routing;
  // The weighted router with no scorers given runs BLIS's default profile: name what it runs.
  const scorers = r.policy === 'weighted' && (r.scorers === undefined || r.scorers.length === 0) ? DEFAULT_SCORER_CONFIGS : r.scorers;
  const autoscaling = config.autoscaling !== undefined && config.autoscaling.intervalUs > 0 ? config.autoscaling : undefined;
  const pd = config.pd;
  const pdOn = pd !== undefined && (pd.prefillInstances ?? 0) + (pd.decodeInstances ?? 0) + (pd.prefillDecodeInstances ?? 0) > 0;
  return {
    admission: config.admission.policy,
    priority: config.priority.policy,
    routing: names.customRouting ?? (scorers === undefined ? r.policy : `${r.policy}[${scorers.map((s) => `${s.name}:${s.weight}`).join(',')}]`),
    scheduler: config.scheduler.policy,
    ...(pdOn ? { pd_decider: names.customDecider ?? pd?.decider ?? 'never' } : {}),
    ...(autoscaling !== undefined ? { autoscaler: names.customAutoscaler ?? autoscaling.policy } : {}),
  };
}
