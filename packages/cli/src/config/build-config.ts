import type { SimulationConfigInput } from '@blis/cluster';
import { autoscaleFields } from './autoscale-flags.js';
import { resetConfigOrigins } from './config-origins.js';
import { defaultsFileFields } from './defaults-apply.js';
import { flowControlConfig } from './flow-control-flags.js';
import { goodputFlagConfig } from './goodput-flags.js';
import { instanceFields, instanceIssues } from './instance-fields.js';
import { kvTierFields } from './kv-tier-flags.js';
import { lengthBoundIssues } from '../flags/length-flags.js';
import { loraFields } from './lora-flags.js';
import { moeFlagFields } from './moe-flags.js';
import { fitnessWeightsOf, outputFields } from './output-fields.js';
import { type PdFields, pdConfigIssues, pdFields } from './pd-flags.js';
import { choosePolicies, policyFields, policyParamIssues } from './policy-fields.js';
import { type PolicySetup, isModulePath } from '../policy-modules/index.js';
import { saturationAnalysisFromFlags } from './saturation-setup.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';
import type { AutoscaleFields } from './autoscale-flags.js';

// `blis run`'s flags as a SimulationConfig input: each part of the config comes from the module
// named for what it maps (instance-fields, policy-fields, kv-tier-flags, pd-flags, ...); this
// file only orders them, so that every problem is reported together before anything runs.

/** Flag values after validation, camelCase. */
export type FlagValues = Record<string, unknown>;

/**
 * Turns validated flags (and the files they name) into a SimulationConfig input. Cross-field
 * checks (min > max, conflicting workload sources) happen here, all problems reported together.
 */
export function buildConfig(flags: FlagValues, workload: SimulationConfigInput['workload'], setup: PolicySetup): SimulationConfigInput {
  const issues: UsageIssue[] = [];
  resetConfigOrigins();
  // --defaults-filepath: unset --hardware, --tp, --model-config, --hardware-config from the file.
  const fromDefaults = defaultsFileFields(flags, issues);
  const f = fromDefaults.flags as Record<string, never>;
  lengthBoundIssues(f, issues);
  const unreadable = instanceIssues(f, fromDefaults, issues);
  const goodput = goodputFlagConfig(f, issues);
  const fitnessWeights = fitnessWeightsOf(f, issues);
  const policies = choosePolicies(f, setup, issues);
  const devices = fromDefaults.file !== undefined ? { source: fromDefaults.file.path, classes: fromDefaults.file.devices } : undefined;
  const kvTiers = kvTierFields(f, workload, !unreadable.has('--model-config'), issues, devices);
  const moe = moeFlagFields(f, !unreadable.has('--model-config'), issues);
  const lora = loraFields(f, issues, fromDefaults.loraDefaults);
  const pd = pdFields(f, isModulePath, issues, { registered: setup.scorerNames, known: policies.registry.names('scorer') });
  // A file that failed to load is reported already; its sections are not checked against the flags.
  const autoscale = policies.bundleOk ? autoscaleFields(f, policies.bundle, policies.bundleFile, isModulePath, issues) : {};
  if (issues.length > 0) throw new UsageError(issues);

  const { fields: policy, scorersIgnored } = policyFields(f, policies, setup, issues);
  if (issues.length > 0) throw new UsageError(issues);

  // The literal's order is the config's key order (and the order its parts may throw in).
  const cfg: SimulationConfigInput = {
    ...instanceFields(f, pd.numInstances, moe, fromDefaults),
    ...kvTiers,
    lora,
    ...policy,
    flowControl: flowControlConfig(f),
    workload,
    ...goodput,
    fitnessWeights,
    ...outputFields(f),
    ...scalingFields(pd, autoscale, setup),
    saturationAnalysis: saturationAnalysisFromFlags(f),
  };
  const out = dropUndefined(cfg) as SimulationConfigInput;
  // BLIS's P/D topology rules live in the config's schema: check them now, named by flag.
  const pdIssues = pdConfigIssues(out);
  if (pdIssues.length > 0) throw new UsageError(pdIssues);
  // Built-in policies check the params --policy-param and --routing-scorers gave them now, named by the flag.
  const paramIssues = policyParamIssues(out, flags, setup, policies.registry, scorersIgnored);
  if (paramIssues.length > 0) throw new UsageError(paramIssues);
  return out;
}

/** The P/D and autoscaling fields, with the --policy-param params of a built-in decider or autoscaler. */
function scalingFields(pd: PdFields, autoscale: AutoscaleFields, setup: PolicySetup): Pick<SimulationConfigInput, 'pd' | 'autoscaling' | 'nodePools' | 'lifecycle'> {
  const withParams = (params: Record<string, unknown> | undefined, extra: Record<string, unknown> | undefined) => (extra === undefined ? params : { ...params, ...extra });
  const modules = setup.modules;
  return {
    pd: pd.pd === undefined || modules.decider !== undefined ? pd.pd : { ...pd.pd, deciderParams: withParams(pd.pd.deciderParams, setup.flagParams.byKind.decider) },
    autoscaling:
      autoscale.autoscaling === undefined || modules.autoscaler !== undefined
        ? autoscale.autoscaling
        : { ...autoscale.autoscaling, params: withParams(autoscale.autoscaling.params, setup.flagParams.byKind.autoscaler) },
    nodePools: autoscale.nodePools,
    lifecycle: autoscale.lifecycle,
  };
}

/** Removes undefined fields recursively so zod defaults apply. */
function dropUndefined(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropUndefined);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = dropUndefined(x);
    return out;
  }
  return v;
}
