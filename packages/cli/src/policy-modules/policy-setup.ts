import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { type PolicyKind, type PolicyRegistry, type Scorer, createPolicyRegistry, guardPolicy, policyContext } from '@blis/policies';
import { DEFAULT_POLICY_BUDGET_MS } from '../config/policy-check-flags.js';
import { isDecisionTreePath } from '../inputs/decision-tree-file.js';
import { requireReadable } from '../inputs/input-files.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';
import { readYamlFile } from '../inputs/yaml-file.js';
import type { PolicyWatchdog } from '../policy-watchdog/index.js';
import { type BundleModules, extractBundleModules } from './bundle-modules.js';
import { buildPolicy } from './build-policy.js';
import { type LoadedFactory, importFactory } from './import-factory.js';
import { POLICY_FLAG, POLICY_FLAG_KEY, isModulePath } from './module-path.js';
import { type FlagParams, parsePolicyParamFlags } from './policy-param-flag.js';
import { SCORER_LIST_FLAGS, scorerListNames } from './scorer-list.js';

/** A policy kind a module can replace as a whole (scorers plug into `weighted` instead). */
export type ModuleKind = Exclude<PolicyKind, 'scorer'>;

/** A custom policy to build: its factory, the params it gets, and where it was named. */
export interface LoadedModule {
  readonly kind: ModuleKind;
  readonly given: string;
  readonly where: string;
  readonly factory: LoadedFactory;
  readonly params: Readonly<Record<string, unknown>>;
  /** Stops a run whose module code never returns (set for ES modules). */
  readonly watchdog?: PolicyWatchdog;
}

/** Everything the policy flags and the policy YAML name, loaded once before the config is built. */
export interface PolicySetup {
  readonly flagParams: FlagParams;
  /** The policy YAML, module references taken out (see bundle-modules.ts). */
  readonly bundle?: BundleModules;
  /** A fresh registry holding the scorer modules, when any are named. */
  readonly registry?: PolicyRegistry;
  /** Scorer-list flags' module paths as given -> the names they are registered under. */
  readonly scorerNames: ReadonlyMap<string, string>;
  readonly modules: Partial<Record<ModuleKind, LoadedModule>>;
  /** Where each custom policy came from, for the runtime's error messages. */
  readonly sources: Partial<Record<PolicyKind, string>>;
  /** Present when an ES module was loaded: stops a run whose module code never returns. */
  readonly watchdog?: PolicyWatchdog;
}

interface Wanted {
  kind: PolicyKind;
  given: string;
  absPath: string;
  where: string;
  params: Record<string, unknown>;
  /** For a scorer of the policy YAML: its position in `routing.scorers`. */
  index?: number;
}

const MODULE_KINDS = Object.keys(POLICY_FLAG_KEY) as ModuleKind[];

/**
 * Reads `--policy-param`, the policy YAML and every policy flag, and imports each module they
 * name (once). Flags win over the YAML: a kind the flag names is not taken from the file, and
 * flag params go on top of the section's. Every problem is a UsageError naming the flag or the
 * file, line and key, with the module path.
 */
export async function preparePolicies(flags: Record<string, unknown>): Promise<PolicySetup> {
  const issues: UsageIssue[] = [];
  const flagParams = parsePolicyParamFlags((flags.policyParam as string[] | undefined) ?? [], issues);
  let bundle: BundleModules | undefined;
  if (typeof flags.policyConfig === 'string') {
    requireReadable('--policy-config', flags.policyConfig, 'policy configuration file');
    bundle = extractBundleModules(readYamlFile(flags.policyConfig, 'policy configuration'), issues);
  }

  const wanted: Wanted[] = [];
  for (const kind of MODULE_KINDS) {
    const flagValue = flags[POLICY_FLAG_KEY[kind]];
    const fromFile = bundle?.modules.find((m) => m.kind === kind);
    if (typeof flagValue === 'string') {
      if (!isModulePath(flagValue)) continue;
      if (!existsSync(flagValue)) {
        issues.push({ where: POLICY_FLAG[kind], expected: isDecisionTreePath(flagValue) ? 'an existing decision-tree YAML file' : 'a policy name or an existing ES module path', found: JSON.stringify(flagValue) });
        continue;
      }
      // The section's params go with the flag's module only when the section names no other policy.
      const absPath = resolve(flagValue);
      const sectionParams = fromFile?.absPath === absPath ? fromFile.params : sectionParamsWithoutPolicy(bundle, kind);
      wanted.push({ kind, given: flagValue, absPath, where: `${POLICY_FLAG[kind]} ${flagValue}`, params: { ...sectionParams, ...flagParams.byKind[kind] } });
    } else if (fromFile !== undefined) {
      if (!existsSync(fromFile.absPath)) issues.push({ where: fromFile.where, expected: 'an existing ES module or decision-tree file (relative to the policy file\'s folder)', found: JSON.stringify(fromFile.absPath) });
      else wanted.push({ ...fromFile, params: { ...fromFile.params, ...flagParams.byKind[kind] } });
    }
  }

  const scorers: Wanted[] = [];
  for (const [key, flag] of SCORER_LIST_FLAGS) {
    const text = flags[key];
    if (typeof text !== 'string') continue;
    for (const given of scorerListNames(text)) {
      if (!isModulePath(given)) continue;
      if (!existsSync(given)) issues.push({ where: `${flag} ${given}`, expected: 'an existing ES module path', found: 'no such file' });
      else scorers.push({ kind: 'scorer', given, absPath: resolve(given), where: `${flag} ${given}`, params: {} });
    }
  }
  for (const s of bundle?.scorers ?? []) {
    if (!existsSync(s.absPath)) issues.push({ where: s.where, expected: 'an existing ES module file (relative to the policy file\'s folder)', found: JSON.stringify(s.absPath) });
    else scorers.push({ ...s });
  }
  if (issues.length > 0) throw new UsageError(issues);

  // Code of ours (decision trees) needs no watchdog; an ES module's might never return.
  const budgetMs = (flags.policyBudgetMs as number | undefined) ?? DEFAULT_POLICY_BUDGET_MS;
  const watchdog = [...wanted, ...scorers].some((w) => !isDecisionTreePath(w.absPath)) ? await startWatchdog(budgetMs) : undefined;
  // One import per file, in a fixed order, so the first problem reported is always the same one.
  const factories = new Map<Wanted, LoadedFactory>();
  for (const w of [...wanted, ...scorers]) {
    try {
      factories.set(w, await importFactory(w.kind, w.absPath, w.where, watchdog));
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      issues.push(...e.issues);
    }
  }
  if (issues.length > 0) throw new UsageError(issues);

  const modules: Partial<Record<ModuleKind, LoadedModule>> = {};
  const sources: Partial<Record<PolicyKind, string>> = {};
  for (const w of wanted) {
    const kind = w.kind as ModuleKind;
    modules[kind] = { kind, given: w.given, where: w.where, factory: factories.get(w) as LoadedFactory, params: w.params, ...(watchdog !== undefined ? { watchdog } : {}) };
    sources[kind] = w.given;
  }
  const scorerNames = new Map<string, string>();
  let registry: PolicyRegistry | undefined;
  if (scorers.length > 0) {
    registry = createPolicyRegistry();
    const byPath = new Map<string, string>();
    for (const s of scorers) {
      let name = byPath.get(s.absPath);
      if (name === undefined) {
        name = registryName(registry, s.absPath);
        byPath.set(s.absPath, name);
        const factory = factories.get(s) as LoadedFactory;
        const where = s.where;
        // Guarded like every module policy: its errors name the file and the decision.
        const source = s.given;
        const guard = { source, budgetMs, readOnly: flags.checkPolicies === true, ...(watchdog !== undefined ? { watch: watchdog } : {}) };
        registry.registerScorer(name, (ctx) => guardPolicy('scorer', buildPolicy('scorer', factory, where, ctx, watchdog) as Scorer, guard));
        // Built once now, so a module that throws or has the wrong shape fails before any run.
        buildPolicy('scorer', factory, where, policyContext({ numInstances: (flags.numInstances as number | undefined) ?? 1, params: { ...s.params, ...flagParams.scorers[name] } }), watchdog);
      }
      if (s.index !== undefined && bundle !== undefined) ((bundle.value.routing as { scorers: Record<string, unknown>[] }).scorers[s.index] as Record<string, unknown>).name = name;
      else scorerNames.set(s.given, name);
    }
    sources.scorer = [...new Set(scorers.map((s) => s.given))].join(', ');
  }
  return { flagParams, bundle, registry, scorerNames, modules, sources, ...(watchdog !== undefined ? { watchdog } : {}) };
}

/** The section's `params` when it names no policy (they then go to whichever runs). */
function sectionParamsWithoutPolicy(bundle: BundleModules | undefined, kind: ModuleKind): Record<string, unknown> {
  const s = bundle?.value[kind] as Record<string, unknown> | undefined;
  if (s === undefined || s === null || typeof s !== 'object' || s.policy !== undefined) return {};
  const p = s.params;
  if (p === null || typeof p !== 'object' || Array.isArray(p)) return {};
  // Taken by the module: the bundle parser would check them against the default policy.
  delete s.params;
  return p as Record<string, unknown>;
}

/** A registry-valid scorer name from the file name (`./my-scorer.mjs` -> `my-scorer`), unique among `registry`'s. */
function registryName(registry: PolicyRegistry, absPath: string): string {
  const base = basename(absPath).replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'scorer';
  let name = base;
  for (let i = 2; registry.has('scorer', name); i++) name = `${base}-${i}`;
  return name;
}

/** The watchdog of runs with module code; loaded only by them (its thread needs node:worker_threads, a cost every other start-up would pay). */
async function startWatchdog(budgetMs: number): Promise<PolicyWatchdog> {
  return (await import('../policy-watchdog/index.js')).policyWatchdog(budgetMs);
}

/** Loads one module named outside the policy flags (`blis compare --policies`), checked to exist and import. */
export async function loadModule(kind: ModuleKind, given: string, where: string, params: Record<string, unknown>): Promise<LoadedModule> {
  if (!existsSync(given)) throw new UsageError([{ where, expected: 'an existing ES module or decision-tree path', found: JSON.stringify(given) }]);
  const watchdog = isDecisionTreePath(given) ? undefined : await startWatchdog(DEFAULT_POLICY_BUDGET_MS);
  const factory = await importFactory(kind, resolve(given), `${where} ${given}`, watchdog);
  return { kind, given, where: `${where} ${given}`, factory, params, ...(watchdog !== undefined ? { watchdog } : {}) };
}
