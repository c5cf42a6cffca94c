import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SimulationRuntime } from '@blis/cluster';
import type { PolicyFactoryContext } from '@blis/policies';
import { PartitionedRng } from '@blis/engine';
import { UsageError } from './usage-error.js';

/** Names given as module paths load custom policies instead of looking up the registry. */
export function isModulePath(name: string): boolean {
  return name.startsWith('./') || name.startsWith('../') || name.startsWith('/') || /\.(m?js|cjs)$/.test(name);
}

type Kind = 'admission' | 'priority' | 'routing' | 'scheduler' | 'decider';
const METHOD: Record<Kind, string> = { admission: 'admit', priority: 'priority', routing: 'route', scheduler: 'name', decider: 'decide' };

/**
 * Loads a custom policy from an ES module whose default export is a factory
 * `(ctx: PolicyFactoryContext) => Policy`, and checks the policy has the contract's shape.
 */
export async function loadPolicyModule(kind: Kind, path: string, flag: string, ctx: PolicyFactoryContext): Promise<unknown> {
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(resolve(path)).href)) as { default?: unknown };
  } catch (e) {
    throw new UsageError([{ where: `${flag} ${path}`, expected: 'an importable ES module', found: (e as Error).message.split('\n')[0] }]);
  }
  const factory = mod.default;
  if (typeof factory !== 'function')
    throw new UsageError([{ where: `${flag} ${path}`, expected: 'a default export that is a policy factory function', found: typeof factory }]);
  let policy: unknown;
  try {
    policy = (factory as (c: PolicyFactoryContext) => unknown)(ctx);
  } catch (e) {
    throw new UsageError([{ where: `${flag} ${path}`, expected: 'a factory that builds a policy', found: `it threw: ${(e as Error).message}` }]);
  }
  const p = policy as Record<string, unknown> | null;
  if (p === null || typeof p !== 'object' || typeof p.name !== 'string' || (kind !== 'scheduler' && typeof p[METHOD[kind]] !== 'function'))
    throw new UsageError([
      { where: `${flag} ${path}`, expected: `a ${kind} policy object with a string "name"${kind !== 'scheduler' ? ` and a ${METHOD[kind]}() method` : ''}`, found: JSON.stringify(Object.keys(p ?? {})) },
    ]);
  return policy;
}

/** Loads every flag that names a module into runtime overrides for simulate(). */
export async function loadCustomPolicies(
  flags: Record<string, unknown>,
  isModulePath: (s: string) => boolean,
  base: { seed: number; numInstances: number; blockSizeTokens: number },
): Promise<SimulationRuntime> {
  const rng = new PartitionedRng(base.seed);
  const ctx = (name: string): PolicyFactoryContext => ({ numInstances: base.numInstances, params: {}, random: rng.stream(`custom/${name}`), blockSizeTokens: base.blockSizeTokens });
  const runtime: SimulationRuntime = {};
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
  return runtime;
}
