import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SimulationRuntime } from '@blis/cluster';
import type { AutoScalePolicy, PolicyFactoryContext, PoolType } from '@blis/policies';
import { PartitionedRng } from '@blis/engine';
import { isDecisionTreePath, loadDecisionTreeFactory } from './decision-tree-file.js';
import { UsageError } from './usage-error.js';

/**
 * Names given as paths load custom policies instead of looking up the registry: ES modules, or
 * decision trees (`.yaml`/`.yml`).
 */
export function isModulePath(name: string): boolean {
  return name.startsWith('./') || name.startsWith('../') || name.startsWith('/') || /\.(m?js|cjs|ya?ml)$/i.test(name);
}

type Kind = 'admission' | 'priority' | 'routing' | 'scheduler' | 'decider' | 'autoscaler';
const METHOD: Record<Kind, string> = { admission: 'admit', priority: 'priority', routing: 'route', scheduler: 'name', decider: 'decide', autoscaler: 'evaluate' };

/**
 * The runtime overrides the CLI loads. `autoscaler` builds one autoscaler per scaling group
 * (`SimulationRuntime.autoscaler`, declared here too until every build of @blis/cluster has it).
 */
export type CustomPolicies = SimulationRuntime & { autoscaler?: (pool: PoolType) => AutoScalePolicy };

const customAutoscalerNames = new WeakMap<CustomPolicies, string>();

/** The `name` of the custom autoscaler `loadCustomPolicies` loaded into `runtime`, if any. */
export function customAutoscalerName(runtime: CustomPolicies): string | undefined {
  return customAutoscalerNames.get(runtime);
}

/**
 * Loads a custom policy from an ES module whose default export is a factory
 * `(ctx: PolicyFactoryContext) => Policy`, or from a decision tree (`.yaml`), and checks the
 * policy has the contract's shape.
 */
export async function loadPolicyModule(kind: Kind, path: string, flag: string, ctx: PolicyFactoryContext): Promise<unknown> {
  return buildPolicy(kind, await loadPolicyFactory(kind, path, flag), path, flag, ctx);
}

/** The default export of the ES module at `path`, checked to be a function; or a decision tree's factory. */
async function loadPolicyFactory(kind: Kind, path: string, flag: string): Promise<(c: PolicyFactoryContext) => unknown> {
  if (isDecisionTreePath(path)) return loadDecisionTreeFactory(kind, path, flag);
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(resolve(path)).href)) as { default?: unknown };
  } catch (e) {
    throw new UsageError([{ where: `${flag} ${path}`, expected: 'an importable ES module', found: (e as Error).message.split('\n')[0] }]);
  }
  const factory = mod.default;
  if (typeof factory !== 'function')
    throw new UsageError([{ where: `${flag} ${path}`, expected: 'a default export that is a policy factory function', found: typeof factory }]);
  return factory as (c: PolicyFactoryContext) => unknown;
}

const an = (word: string) => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;

/** Calls `factory` and checks the policy has the contract's shape. */
function buildPolicy(kind: Kind, factory: (c: PolicyFactoryContext) => unknown, path: string, flag: string, ctx: PolicyFactoryContext): unknown {
  let policy: unknown;
  try {
    policy = factory(ctx);
  } catch (e) {
    throw new UsageError([{ where: `${flag} ${path}`, expected: 'a factory that builds a policy', found: `it threw: ${(e as Error).message}` }]);
  }
  const p = policy as Record<string, unknown> | null;
  if (p === null || typeof p !== 'object' || typeof p.name !== 'string' || (kind !== 'scheduler' && typeof p[METHOD[kind]] !== 'function'))
    throw new UsageError([
      { where: `${flag} ${path}`, expected: `${an(kind)} policy object with a string "name"${kind !== 'scheduler' ? ` and ${an(METHOD[kind])}() method` : ''}`, found: JSON.stringify(Object.keys(p ?? {})) },
    ]);
  return policy;
}

/** Loads every flag that names a module into runtime overrides for simulate(). */
export async function loadCustomPolicies(
  flags: Record<string, unknown>,
  isModulePath: (s: string) => boolean,
  base: { seed: number; numInstances: number; blockSizeTokens: number },
): Promise<CustomPolicies> {
  const rng = new PartitionedRng(base.seed);
  const ctx = (name: string): PolicyFactoryContext => ({ numInstances: base.numInstances, params: {}, random: rng.stream(`custom/${name}`), blockSizeTokens: base.blockSizeTokens });
  const runtime: CustomPolicies = {};
  const pick = (v: unknown) => (typeof v === 'string' && isModulePath(v) ? v : undefined);
  const a = pick(flags.admissionPolicy);
  if (a) runtime.admission = (await loadPolicyModule('admission', a, '--admission-policy', ctx('admission'))) as SimulationRuntime['admission'];
  const p = pick(flags.priorityPolicy);
  if (p) runtime.priority = (await loadPolicyModule('priority', p, '--priority-policy', ctx('priority'))) as SimulationRuntime['priority'];
  const r = pick(flags.routingPolicy);
  if (r) runtime.routing = (await loadPolicyModule('routing', r, '--routing-policy', ctx('routing'))) as SimulationRuntime['routing'];
  const d = pick(flags.pdDecider);
  if (d) runtime.decider = (await loadPolicyModule('decider', d, '--pd-decider', ctx('decider'))) as SimulationRuntime['decider'];
  const s = pick(flags.scheduler);
  if (s) {
    const perInstance: unknown[] = [];
    for (let i = 0; i < base.numInstances; i++) perInstance.push(await loadPolicyModule('scheduler', s, '--scheduler', ctx(`scheduler/${i}`)));
    runtime.scheduler = (i: number) => perInstance[i] as ReturnType<NonNullable<SimulationRuntime['scheduler']>>;
  }
  const as = pick(flags.autoscalerPolicy);
  if (as) {
    // One autoscaler per scaling group (it may keep state), each with its own random stream. One
    // is built now, on a stream of its own, so that a broken module fails before the run.
    const factory = await loadPolicyFactory('autoscaler', as, '--autoscaler-policy');
    const check = buildPolicy('autoscaler', factory, as, '--autoscaler-policy', ctx('autoscaler/check')) as AutoScalePolicy;
    customAutoscalerNames.set(runtime, check.name);
    runtime.autoscaler = (pool: PoolType) => buildPolicy('autoscaler', factory, as, '--autoscaler-policy', ctx(`autoscaler/${pool}`)) as AutoScalePolicy;
  }
  return runtime;
}
