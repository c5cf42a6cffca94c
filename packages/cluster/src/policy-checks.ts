import {
  type AdmissionPolicy,
  type AutoScalePolicy,
  type CallWatch,
  type DisaggregationDecider,
  type GuardOptions,
  type InstanceScheduler,
  type PoolType,
  type PriorityPolicy,
  type RoutingPolicy,
  guardPolicy,
  type PolicyKind,
  type PolicyOfKind,
  type PolicyRegistry,
} from '@blis/policies';
import { isGuardedPolicy } from '@blis/policies/internal';

/** The parts of `SimulationRuntime` the checks read and replace (declared here: simulate.ts imports this file). */
export interface PolicyCheckRuntime {
  admission?: AdmissionPolicy;
  priority?: PriorityPolicy;
  routing?: RoutingPolicy;
  decider?: DisaggregationDecider;
  autoscaler?: (pool: PoolType) => AutoScalePolicy;
  scheduler?: (instanceIndex: number) => InstanceScheduler;
  checkPolicies?: boolean;
  policyBudgetMs?: number;
  policyWatch?: CallWatch;
  policySources?: Partial<Record<PolicyKind, string>>;
}

/** The registry's factory method of each kind whose policies the cluster builds by name. */
const CREATE: Partial<Record<string, PolicyKind>> = {
  createAdmissionPolicy: 'admission',
  createPriorityPolicy: 'priority',
  createRoutingPolicy: 'routing',
  createScheduler: 'scheduler',
  createDecider: 'decider',
  createAutoscaler: 'autoscaler',
};

/**
 * The runtime with its policies guarded (see `guardPolicy`). A caller's own policy objects are
 * always guarded, so that whatever they throw or answer outside the contract stops the run with
 * a PolicyError naming them (`policySources`) and the decision, and `policyBudgetMs` bounds
 * each of their calls. With `checkPolicies` every policy, built-in ones too, also gets
 * read-only views of its inputs: the registry is wrapped so that whatever the cluster builds by
 * name (pool routers, schedulers, autoscalers) comes out guarded. Built-in policies are left
 * alone otherwise, so they cost nothing.
 */
export function withPolicyChecks<R extends PolicyCheckRuntime>(runtime: R, registry: PolicyRegistry): { runtime: R; registry: PolicyRegistry } {
  const check = runtime.checkPolicies === true;
  // One guard per object and kind: a factory that hands every instance the same scheduler
  // gets the same guarded object back (custom metrics report a shared object once).
  const guards = new WeakMap<object, Map<PolicyKind, unknown>>();
  const custom = <K extends PolicyKind>(kind: K, policy: PolicyOfKind[K]): PolicyOfKind[K] => {
    if (isGuardedPolicy(policy)) return policy;
    let byKind = guards.get(policy);
    const known = byKind?.get(kind);
    if (known !== undefined) return known as PolicyOfKind[K];
    const options: GuardOptions = { readOnly: check };
    const source = runtime.policySources?.[kind];
    if (source !== undefined) options.source = source;
    if (runtime.policyBudgetMs !== undefined) options.budgetMs = runtime.policyBudgetMs;
    if (runtime.policyWatch !== undefined) options.watch = runtime.policyWatch;
    const guarded = guardPolicy(kind, policy, options);
    if (byKind === undefined) guards.set(policy, (byKind = new Map()));
    byKind.set(kind, guarded);
    return guarded;
  };
  const out: R = { ...runtime };
  if (runtime.admission !== undefined) out.admission = custom('admission', runtime.admission);
  if (runtime.priority !== undefined) out.priority = custom('priority', runtime.priority);
  if (runtime.routing !== undefined) out.routing = custom('routing', runtime.routing);
  if (runtime.decider !== undefined) out.decider = custom('decider', runtime.decider);
  const { scheduler, autoscaler } = runtime;
  if (scheduler !== undefined) out.scheduler = (i) => custom('scheduler', scheduler(i));
  if (autoscaler !== undefined) out.autoscaler = (pool) => custom('autoscaler', autoscaler(pool));
  return { runtime: out, registry: check ? checkedRegistry(registry) : registry };
}

/** `registry`, its factory methods returning built-in policies behind read-only views. */
function checkedRegistry(registry: PolicyRegistry): PolicyRegistry {
  return new Proxy(registry, {
    get(target, key) {
      const v = Reflect.get(target, key) as unknown;
      if (typeof v !== 'function') return v;
      const kind = typeof key === 'string' ? CREATE[key] : undefined;
      if (kind === undefined) return (v as (...a: unknown[]) => unknown).bind(target);
      return (...args: unknown[]) => guardPolicy(kind, Reflect.apply(v, target, args) as PolicyOfKind[PolicyKind], { readOnly: true });
    },
  });
}
