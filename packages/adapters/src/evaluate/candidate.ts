import type { SimulationRuntime } from '@blis/cluster';
import { PartitionedRng } from '@blis/engine';
import { type CallWatch, type PolicyFactoryContext, type PolicyOfKind, type PoolType, guardPolicy } from '@blis/policies';
import { candidateFile } from './candidate-build.js';
import { InvalidCandidateError } from './candidate-error.js';
import { ComponentMemo } from './component-memo.js';
import { type BundlePatch, bundlePatch, validateBundle } from './policy-bundle-apply.js';
import { type PolicyFactory, instantiatePolicyModule, policyKindOf } from './policy-module.js';
import type { Candidate, ComponentName, EvalIssue, ModulePolicyKind } from './protocol.js';
import { parseYamlText } from './yaml-text.js';

/** What a run needs to know to build fresh policy objects (they may keep state between calls). */
export interface RunContext {
  seed: number;
  numInstances: number;
  blockSizeTokens: number;
}

/** A policy built from code or a tree rather than named in the config: one factory per kind. */
export interface PolicyObjectFactory {
  kind: ModulePolicyKind;
  /** Where it came from, for messages (`candidate.ts`, `components.routing`). */
  origin: string;
  build: PolicyFactory;
  /**
   * Guard it (`guardPolicy`): its exceptions and answers outside the contract become a
   * PolicyError naming `origin` and the decision, the candidate's fault rather than ours.
   */
  guard: boolean;
}

/** A candidate made ready to run: config changes plus the policy objects it brings. */
export interface ResolvedCandidate {
  patch: BundlePatch;
  objects: PolicyObjectFactory[];
  /** The name of each object policy, for the decision trace. */
  objectNames: Partial<Record<ModulePolicyKind, string>>;
}

/**
 * Turns a decision-tree document (already parsed) into a policy factory of `kind`, or returns
 * undefined when the text is not a tree. Supplied by the decision-tree module.
 */
export type TreeLoader = (value: unknown, text: string, origin: string, kind: TreeKind) => PolicyFactory | undefined;

/** The policy kinds a decision tree can be. */
export type TreeKind = Exclude<ModulePolicyKind, 'decider'>;

const TREE_KIND: Partial<Record<ComponentName, TreeKind>> = { admission: 'admission', priority: 'priority', routing: 'routing', autoscaler: 'autoscaler' };

/**
 * Validates and prepares `candidate`; its faults throw {@link InvalidCandidateError}. A module
 * candidate comes compiled (`compiled`, compileCandidate's script): its code (top level, factory)
 * runs here, synchronously, so that the caller can bound it.
 */
export function resolveCandidate(candidate: Candidate, loadTree?: TreeLoader, compiled?: string): ResolvedCandidate {
  const out: ResolvedCandidate = { patch: {}, objects: [], objectNames: {} };
  switch (candidate.kind) {
    case 'baseline':
      return out;
    case 'policy-yaml': {
      const parsed = parseYamlText(candidate.text, 'candidate.yaml');
      if (!parsed.ok) throw new InvalidCandidateError(parsed.issues);
      out.patch = bundlePatch(validateBundle(parsed.yaml, 'candidate.yaml'));
      return out;
    }
    case 'policy-module': {
      const file = candidateFile(candidate.language);
      if (compiled === undefined) throw new Error('resolveCandidate: a policy-module candidate needs its compiled script');
      const factory = instantiatePolicyModule(compiled, file);
      const probe = buildChecked(factory, file, contextFor({ seed: 0, numInstances: 1, blockSizeTokens: 16 }, 'check'));
      const kind = candidate.policy_kind ?? policyKindOf(probe, file);
      addObject(out, { kind, origin: file, build: factory, guard: true }, probe);
      return out;
    }
    case 'components':
      return resolveComponents(candidate.components, out, loadTree);
  }
}

/** This process's policy texts already validated (see {@link ComponentMemo}). */
const components = new ComponentMemo();
/** The memo's key for a candidate resolved without a tree loader. */
const NO_LOADER = {};

function resolveComponents(texts: Partial<Record<ComponentName, string>>, out: ResolvedCandidate, loadTree: TreeLoader | undefined): ResolvedCandidate {
  const issues: EvalIssue[] = [];
  const loader = loadTree ?? NO_LOADER;
  // A fixed order, so that overlapping components (the whole `policy`, then one section) resolve the same way every time.
  const order: ComponentName[] = ['policy', 'admission', 'priority', 'routing', 'scheduler', 'autoscaler'];
  for (const name of order) {
    const text = texts[name];
    if (text === undefined) continue;
    const known = components.get(loader, name, text);
    if (known !== undefined) {
      if ('issues' in known) issues.push(...known.issues);
      else Object.assign(out.patch, known.patch);
      continue;
    }
    const origin = `components.${name}`;
    // A tree's faults (and its factory) are not remembered: only a bundle section's.
    let tree = false;
    try {
      const parsed = parseYamlText(text, origin);
      if (!parsed.ok) throw new InvalidCandidateError(parsed.issues);
      const value = parsed.yaml.value;
      const treeKind = TREE_KIND[name];
      tree = treeKind !== undefined && loadTree !== undefined;
      const factory = treeKind !== undefined && loadTree !== undefined ? loadTree(value, text, origin, treeKind) : undefined;
      if (factory !== undefined && treeKind !== undefined) {
        addObject(out, { kind: treeKind, origin, build: factory, guard: false }, buildChecked(factory, origin, contextFor({ seed: 0, numInstances: 1, blockSizeTokens: 16 }, 'check')));
        continue;
      }
      tree = false;
      // A whole bundle, or one section of it written without its key.
      const bundle =
        name === 'policy'
          ? validateBundle(parsed.yaml, origin)
          : validateBundle({ value: { [name]: value }, lineOf: (p) => parsed.yaml.lineOf(p.slice(1)) }, origin);
      const patch = bundlePatch(bundle);
      components.set(loader, name, text, { patch });
      Object.assign(out.patch, patch);
    } catch (e) {
      if (!(e instanceof InvalidCandidateError)) throw e;
      if (!tree) components.set(loader, name, text, { issues: e.issues });
      issues.push(...e.issues);
    }
  }
  if (issues.length > 0) throw new InvalidCandidateError(issues);
  return out;
}

function addObject(out: ResolvedCandidate, object: PolicyObjectFactory, probe: Record<string, unknown>): void {
  out.objects = out.objects.filter((o) => o.kind !== object.kind);
  out.objects.push(object);
  out.objectNames[object.kind] = typeof probe.name === 'string' ? probe.name : object.kind;
}

/** Each policy gets its own random stream, named as the CLI names a custom policy's. */
export function contextFor(run: RunContext, stream: string): PolicyFactoryContext {
  return { numInstances: run.numInstances, params: {}, random: new PartitionedRng(run.seed).stream(`custom/${stream}`), blockSizeTokens: run.blockSizeTokens };
}

function buildChecked(factory: PolicyFactory, origin: string, ctx: PolicyFactoryContext): Record<string, unknown> {
  let policy: unknown;
  try {
    policy = factory(ctx);
  } catch (e) {
    throw new InvalidCandidateError([{ where: `${origin} factory`, expected: 'a factory that builds a policy', found: `it threw: ${(e as Error)?.message ?? String(e)}` }]);
  }
  if (policy === null || typeof policy !== 'object' || typeof (policy as { name?: unknown }).name !== 'string')
    throw new InvalidCandidateError([{ where: `${origin} factory`, expected: 'a policy object with a string "name"', found: policy === null ? 'null' : typeof policy === 'object' ? JSON.stringify(Object.keys(policy)) : typeof policy }]);
  return policy as Record<string, unknown>;
}

/** Fresh policy objects for one run, as SimulationRuntime overrides; `watch` hears their guarded calls. */
export function runtimeFor(c: ResolvedCandidate, run: RunContext, watch?: CallWatch): SimulationRuntime {
  const runtime: SimulationRuntime = {};
  for (const o of c.objects) {
    const make = (stream: string) => {
      const p = buildChecked(o.build, o.origin, contextFor(run, stream));
      return o.guard ? guardPolicy(o.kind, p as unknown as PolicyOfKind[ModulePolicyKind], { source: o.origin, ...(watch !== undefined ? { watch } : {}) }) : p;
    };
    switch (o.kind) {
      case 'admission':
        runtime.admission = make('admission') as unknown as SimulationRuntime['admission'];
        break;
      case 'priority':
        runtime.priority = make('priority') as unknown as SimulationRuntime['priority'];
        break;
      case 'routing':
        runtime.routing = make('routing') as unknown as SimulationRuntime['routing'];
        break;
      case 'decider':
        runtime.decider = make('decider') as unknown as SimulationRuntime['decider'];
        break;
      case 'autoscaler':
        runtime.autoscaler = (pool: PoolType) => make(`autoscaler/${pool}`) as unknown as ReturnType<NonNullable<SimulationRuntime['autoscaler']>>;
        break;
    }
  }
  return runtime;
}
