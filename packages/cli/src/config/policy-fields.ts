import { describeFound, splitListMessage } from '@blis/policies/internal';
import type { SimulationConfigInput } from '@blis/cluster';
import { type PolicyBundle, type PolicyOverrides, type PolicyRegistry, defaultPolicyRegistry, listPolicies, parseScorerList, resolvePolicySpecs } from '@blis/policies';
import { withLoraScorer } from './lora-flags.js';
import { checkPolicyBundle } from './policy-bundle-check.js';
import { type PolicySetup, isModulePath, withRegisteredScorerNames } from '../policy-modules/index.js';
import { type ParamFlag, builtinParamIssues, withFlagParams } from '../policy-modules/builtin-params.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';
import type { YamlFile } from '../inputs/yaml-file.js';

// The admission, priority, routing and scheduling policies of a run: the --policy-config file
// first, the policy flags on top (BLIS: flags override the file), as the config's policy fields.

/** The policies a run selects, before their fields are built. */
export interface PolicyChoice {
  registry: PolicyRegistry;
  /** The --policy-config file's sections (empty without one or when it failed to load). */
  bundle: PolicyBundle;
  bundleFile?: YamlFile;
  /** False when the --policy-config file failed to load (its problems are reported already). */
  bundleOk: boolean;
  specs: ReturnType<typeof resolvePolicySpecs>;
  /** --routing-scorers, parsed. */
  scorers?: { name: string; weight: number }[];
}

/** `--token-bucket-capacity` -> `tokenBucketCapacity`. */
export function camelOf(flag: string): string {
  return flag.replace(/^--/, '').replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * The policies from the --policy-config file (`setup.bundle`) and the policy flags of `f`;
 * problems go to `issues`, warnings (settings no selected policy takes) to stderr.
 */
export function choosePolicies(f: Record<string, unknown>, setup: PolicySetup, issues: UsageIssue[]): PolicyChoice {
  let bundle: PolicyBundle = {};
  let bundleFile: YamlFile | undefined;
  let bundleOk = true;
  const registry = setup.registry ?? defaultPolicyRegistry;
  if (setup.bundle !== undefined) {
    if (f.quiet !== true) for (const w of setup.bundle.warnings) process.stderr.write(`blis: warning: ${w}\n`);
    try {
      ({ bundle, file: bundleFile } = checkPolicyBundle(setup.bundle, registry));
    } catch (e) {
      bundleOk = false;
      if (e instanceof UsageError) issues.push(...e.issues);
      else throw e;
    }
  }
  const overrides: { -readonly [K in keyof PolicyOverrides]: PolicyOverrides[K] } = {};
  const named = (v: unknown) => (typeof v === 'string' && !isModulePath(v) ? v : undefined);
  const admissionParams: Record<string, unknown> = {};
  if (f.tokenBucketCapacity !== undefined) admissionParams.capacity = f.tokenBucketCapacity;
  if (f.tokenBucketRefillRate !== undefined) admissionParams.refillRate = f.tokenBucketRefillRate;
  if (f.admissionPolicy !== undefined || Object.keys(admissionParams).length > 0)
    overrides.admission = { name: named(f.admissionPolicy), params: Object.keys(admissionParams).length > 0 ? admissionParams : undefined };
  if (f.priorityPolicy !== undefined) overrides.priority = { name: named(f.priorityPolicy) };
  if (f.scheduler !== undefined) overrides.scheduler = { name: named(f.scheduler) };
  if (f.preemptionPolicy !== undefined) overrides.preemption = f.preemptionPolicy as 'fcfs' | 'priority';
  let scorers: { name: string; weight: number }[] | undefined;
  if (typeof f.routingScorers === 'string') {
    try {
      // Module paths are registered under names of their own (policy-modules/policy-setup.ts).
      const text = withRegisteredScorerNames(f.routingScorers as string, setup.scorerNames);
      scorers = parseScorerList(text, registry.names('scorer')).map((s) => ({ name: s.name, weight: s.weight }));
    } catch (e) {
      issues.push({ where: '--routing-scorers', ...splitListMessage((e as Error).message, '"name:weight,..." pairs') });
    }
  }
  if (f.routingPolicy !== undefined || scorers !== undefined)
    overrides.routing = { name: named(f.routingPolicy), params: scorers !== undefined ? { scorers } : undefined };

  const specs = resolvePolicySpecs(bundle, withFlagParams(overrides, setup));
  // Settings that apply to no selected policy do not change the run; say so rather than
  // silently dropping them (BLIS does), on stderr so stdout stays the result.
  if (f.quiet !== true) for (const w of specs.warnings) process.stderr.write(`blis: warning: ${w}\n`);
  const listing = listPolicies();
  for (const [flag, kind, value] of [
    ['--admission-policy', 'admission', specs.admission.name],
    ['--priority-policy', 'priority', specs.priority.name],
    ['--routing-policy', 'routing', specs.routing.name],
    ['--scheduler', 'scheduler', specs.scheduler.name],
  ] as const) {
    const given = f[camelOf(flag)] as string | undefined;
    if (given !== undefined && isModulePath(given)) continue;
    if (!listing[kind].includes(value)) issues.push({ where: flag, expected: `one of ${listing[kind].join(', ')}`, found: describeFound(value) });
  }
  return { registry, bundle, bundleFile, bundleOk, specs, scorers };
}

type PolicyFields = Pick<
  SimulationConfigInput,
  'admission' | 'priority' | 'routing' | 'scheduler' | 'preemptionPolicy' | 'admissionLatencyUs' | 'routingLatencyUs' | 'snapshotRefreshIntervalUs' | 'cacheSignalDelayUs'
>;

/**
 * The config's policy fields for the chosen policies `p` (run once the flags have no problems),
 * and whether --routing-scorers is ignored. Problems go to `issues`.
 */
export function policyFields(f: Record<string, unknown>, p: PolicyChoice, setup: PolicySetup, issues: UsageIssue[]): { fields: PolicyFields; scorersIgnored: boolean } {
  const { specs } = p;
  const routingParams = { ...specs.routing.params };
  // BLIS ignores --routing-scorers, with a warning, under a router that takes no scorers (its
  // docs give `--routing-scorers "vllm-dp:1"` beside the default round-robin): so do we, once
  // the scorers have been checked.
  const scorersIgnored = p.scorers !== undefined && specs.routing.name !== 'weighted' && setup.modules.routing === undefined && p.registry.has('routing', specs.routing.name);
  if (scorersIgnored) {
    delete routingParams.scorers;
    if (f.quiet !== true) process.stderr.write(`blis: warning: --routing-scorers has no effect with routing policy "${specs.routing.name}" (it applies to --routing-policy weighted)\n`);
  }
  const routingScorers = withLoraScorer(routingParams.scorers as { name: string; weight: number }[] | undefined, f.loraScorerWeight as number | undefined, specs.routing.name, f.quiet === true, issues);
  delete routingParams.scorers;
  const fields: PolicyFields = {
    admission: { policy: specs.admission.name, params: { ...specs.admission.params } },
    priority: { policy: specs.priority.name, params: { ...specs.priority.params } },
    routing: { policy: specs.routing.name, scorers: routingScorers, params: routingParams },
    scheduler: { policy: specs.scheduler.name, params: setup.modules.scheduler === undefined ? { ...setup.flagParams.byKind.scheduler } : {} },
    preemptionPolicy: specs.preemption,
    admissionLatencyUs: f.admissionLatency as number | undefined,
    routingLatencyUs: f.routingLatency as number | undefined,
    snapshotRefreshIntervalUs: f.snapshotRefreshInterval as number | undefined,
    cacheSignalDelayUs: f.cacheSignalDelay as number | undefined,
  };
  return { fields, scorersIgnored };
}

/**
 * Built-in policies' refusals of the params --policy-param, --routing-scorers and the token
 * bucket flags gave them in `config`, named by the flag (not --routing-scorers when ignored).
 */
export function policyParamIssues(config: SimulationConfigInput, flags: Record<string, unknown>, setup: PolicySetup, registry: PolicyRegistry, scorersIgnored: boolean): UsageIssue[] {
  return builtinParamIssues(config, setup, registry, paramFlags(flags).filter((p) => !(scorersIgnored && p.flag === '--routing-scorers')));
}

/** The policy parameters set by flags of their own, so that a policy's refusal names the flag. */
function paramFlags(flags: Record<string, unknown>): ParamFlag[] {
  const out: ParamFlag[] = [];
  const add = (flag: string, kind: ParamFlag['kind'], param: string, takenBy: string) => {
    const v = flags[camelOf(flag)];
    if (v !== undefined) out.push({ kind, param, flag, text: String(v), takenBy });
  };
  add('--routing-scorers', 'routing', 'scorers', 'a scorer-based router such as --routing-policy weighted');
  add('--token-bucket-capacity', 'admission', 'capacity', '--admission-policy token-bucket');
  add('--token-bucket-refill-rate', 'admission', 'refillRate', '--admission-policy token-bucket');
  return out;
}
