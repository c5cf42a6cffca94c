import type { SimulationRuntime } from '@blis/cluster';
import { PartitionedRng } from '@blis/engine';
import type { AutoScalePolicy, PolicyFactoryContext, PoolType } from '@blis/policies';
import { buildPolicy } from './build-policy.js';
import type { LoadedModule, PolicySetup } from './policy-setup.js';

/**
 * The runtime overrides the CLI builds from modules. `autoscaler` builds one autoscaler per
 * scaling group; `policySources` names each module for error messages.
 */
export type CustomPolicies = SimulationRuntime & { autoscaler?: (pool: PoolType) => AutoScalePolicy };

/** What a run's policies are built for: its seed (their random streams), its size and block size. */
export interface RunShape {
  seed: number;
  numInstances: number;
  blockSizeTokens: number;
}

const autoscalerNames = new WeakMap<CustomPolicies, string>();

/** The `name` of the custom autoscaler `customRuntime` built into `runtime`, if any. */
export function customAutoscalerName(runtime: CustomPolicies): string | undefined {
  return autoscalerNames.get(runtime);
}

/**
 * Builds every module policy of `setup` for one run, each with its params and a random stream of
 * its own (`custom/<kind>`), checking each has the contract's shape. Schedulers are one per
 * instance; autoscalers one per scaling group. Scorer modules come in through `registry`.
 */
export function customRuntime(setup: PolicySetup, run: RunShape): CustomPolicies {
  const rng = new PartitionedRng(run.seed);
  const ctx = (m: LoadedModule, stream: string): PolicyFactoryContext => ({ numInstances: run.numInstances, params: structuredClone(m.params) as Record<string, unknown>, random: rng.stream(`custom/${stream}`), blockSizeTokens: run.blockSizeTokens });
  const build = <T>(m: LoadedModule, stream: string) => buildPolicy(m.kind, m.factory, m.where, ctx(m, stream), m.watchdog) as T;
  const runtime: CustomPolicies = {};
  // Every guarded call of a module policy arms the watchdog (one per process, when a module was loaded).
  const watchdog = setup.watchdog ?? Object.values(setup.modules).find((m) => m?.watchdog !== undefined)?.watchdog;
  if (watchdog !== undefined) runtime.policyWatch = watchdog;
  const { admission, priority, routing, decider, scheduler, autoscaler } = setup.modules;
  if (admission) runtime.admission = build(admission, 'admission');
  if (priority) runtime.priority = build(priority, 'priority');
  if (routing) runtime.routing = build(routing, 'routing');
  if (decider) runtime.decider = build(decider, 'decider');
  if (scheduler) {
    const perInstance: unknown[] = [];
    for (let i = 0; i < run.numInstances; i++) perInstance.push(build(scheduler, `scheduler/${i}`));
    // Instances the autoscaler adds later get theirs when they are built.
    runtime.scheduler = (i: number) => (perInstance[i] ?? build(scheduler, `scheduler/${i}`)) as ReturnType<NonNullable<SimulationRuntime['scheduler']>>;
  }
  if (autoscaler) {
    // One per scaling group (it may keep state). One is built now, on a stream of its own, so
    // that a broken module fails before the run.
    const check = build<AutoScalePolicy>(autoscaler, 'autoscaler/check');
    autoscalerNames.set(runtime, check.name);
    runtime.autoscaler = (pool: PoolType) => build<AutoScalePolicy>(autoscaler, `autoscaler/${pool}`);
  }
  if (setup.registry !== undefined) runtime.registry = setup.registry;
  if (Object.keys(setup.sources).length > 0) runtime.policySources = { ...setup.sources };
  return runtime;
}
