import { type AutoscalingInput, type LifecycleInput, autoscaleConfigFromBundle, describeFound, formatParamPath } from '@blis/policies/internal';
import type { SimulationConfigInput } from '@blis/cluster';
import { type PolicyBundle, listPolicies } from '@blis/policies';
import type { UsageIssue } from '../errors/usage-error.js';
import type { YamlFile } from '../inputs/yaml-file.js';
import { setConfigOrigin } from './config-origins.js';

export { AUTOSCALE_FLAGS } from '../flags/autoscale-flag-defs.js';

// The autoscaling flags of `blis run` and `blis replay` and the `--policy-config` sections they
// override (`autoscaler`, `node_pools`, `instance_lifecycle`), as the config's `autoscaling`,
// `nodePools` and `lifecycle` fields. Flags win over the file.

/** The interval `--autoscaler-enabled` gives when nothing else does: 30 s, WVA's tick. */
export const DEFAULT_AUTOSCALER_INTERVAL_US = 30_000_000;

const DRAIN_POLICIES = ['wait', 'immediate', 'redirect'] as const;

/** Flags that do something only while the autoscaler runs. */
const NEED_AUTOSCALER: readonly (readonly [string, string])[] = [
  ['autoscalerPolicy', '--autoscaler-policy'],
  ['autoscalerMin', '--autoscaler-min'],
  ['autoscalerMax', '--autoscaler-max'],
  ['autoscalerCooldown', '--autoscaler-cooldown'],
  ['scaleUpWindow', '--scale-up-window'],
  ['scaleDownWindow', '--scale-down-window'],
  ['drainPolicy', '--drain-policy'],
];

const LIFECYCLE_FLAGS = ['loadingDelay', 'provisioningDelay', 'warmupDuration', 'warmupRequests', 'warmupTtftFactor', 'drainPolicy'] as const;

/** The config fields the autoscaling flags and sections give, and a custom autoscaler to load. */
export interface AutoscaleFields {
  autoscaling?: SimulationConfigInput['autoscaling'];
  nodePools?: SimulationConfigInput['nodePools'];
  lifecycle?: SimulationConfigInput['lifecycle'];
  /** `--autoscaler-policy` naming an ES module (loaded by policy-modules/). */
  customAutoscaler?: string;
}

/** The policy file's location of `path`, as problems in it are named: `policy.yaml:12 autoscaler.max_replicas`. */
function fileWhere(file: YamlFile | undefined, path: readonly (string | number)[]): string {
  if (file === undefined) return `--policy-config ${formatParamPath(path, '')}`;
  const line = file.lineOf(path);
  return `${file.path}${line !== undefined ? `:${line}` : ''} ${formatParamPath(path, '')}`;
}

/**
 * The autoscaling part of the config: the `--policy-config` sections (`bundle`, read from
 * `file`) with the flags (`f`, validated, camelCase) on top. Problems go to `issues`, named by
 * flag (or by file, line and key); settings that change nothing are named on stderr.
 * `autoscaling` is set only when the autoscaler is on (an interval > 0).
 */
export function autoscaleFields(
  f: Record<string, unknown>,
  bundle: PolicyBundle,
  file: YamlFile | undefined,
  isModulePath: (s: string) => boolean,
  issues: UsageIssue[],
): AutoscaleFields {
  const warn = (message: string) => {
    if (f.quiet !== true) process.stderr.write(`blis: warning: ${message}\n`);
  };
  const out: AutoscaleFields = {};

  // Which autoscaler: a registered name, or a module loaded at run time.
  const policyFlag = f.autoscalerPolicy as string | undefined;
  if (policyFlag !== undefined && isModulePath(policyFlag)) {
    out.customAutoscaler = policyFlag;
  } else if (policyFlag !== undefined) {
    const known = listPolicies().autoscaler;
    if (!known.includes(policyFlag))
      issues.push({ where: '--autoscaler-policy', expected: `${known.length > 0 ? `one of ${known.join(', ')}, or ` : ''}an ES module path (./autoscaler.mjs)`, found: describeFound(policyFlag) });
  }
  const converted = autoscaleConfigFromBundle(bundle, { policy: policyFlag });

  // On or off: the flag's interval, else the file's; --autoscaler-enabled supplies 30 s.
  const givenInterval = f.modelAutoscalerIntervalUs as number | undefined;
  const fileInterval = bundle.autoscaler?.interval_us;
  let intervalUs = givenInterval ?? fileInterval ?? 0;
  if (f.autoscalerEnabled === true) {
    if (givenInterval === 0)
      issues.push({ where: '--autoscaler-enabled', expected: 'no --model-autoscaler-interval-us 0 beside it (0 turns the autoscaler off)', found: '--model-autoscaler-interval-us 0' });
    else if (intervalUs === 0) intervalUs = DEFAULT_AUTOSCALER_INTERVAL_US;
  }
  const on = intervalUs > 0;
  const offBecause =
    givenInterval === 0
      ? '--model-autoscaler-interval-us 0'
      : fileInterval === 0
        ? `${fileWhere(file, ['autoscaler', 'interval_us'])} 0`
        : undefined;

  if (!on) {
    for (const [key, flag] of NEED_AUTOSCALER)
      if (f[key] !== undefined)
        issues.push({ where: flag, expected: 'the autoscaler on (--autoscaler-enabled, --model-autoscaler-interval-us > 0, or autoscaler.interval_us > 0 in --policy-config)', found: offBecause ?? 'no interval (off by default)' });
    const unused = Object.keys(bundle.autoscaler ?? {}).filter((k) => k !== 'interval_us');
    if (unused.length > 0) warn(`${unused.map((k) => `autoscaler.${k}`).join(', ')} ignored: the autoscaler is off (${offBecause ?? 'no interval_us'})`);
  } else {
    for (const w of converted.warnings) warn(w);
    const a: AutoscalingInput = { ...converted.config.autoscaling, intervalUs };
    if (givenInterval === undefined)
      setConfigOrigin('autoscaling.intervalUs', fileInterval !== undefined && fileInterval > 0 ? fileWhere(file, ['autoscaler', 'interval_us']) : '--autoscaler-enabled (every 30 s)');
    if (out.customAutoscaler !== undefined) {
      // A custom autoscaler is a runtime object (policy-modules/): it got the section's params
      // unless the section names another autoscaler, whose params these are.
      if (a.params !== undefined) warn(`autoscaler.params ignored: they belong to "${bundle.autoscaler?.policy}", but the custom autoscaler ${out.customAutoscaler} runs`);
      delete a.policy;
      delete a.params;
    } else if (policyFlag !== undefined) {
      a.policy = policyFlag;
    }
    if (f.autoscalerMin !== undefined) a.minReplicas = f.autoscalerMin as number;
    if (f.autoscalerMax !== undefined) a.maxReplicas = f.autoscalerMax as number;
    else if (a.maxReplicas !== undefined) setConfigOrigin('autoscaling.maxReplicas', fileWhere(file, ['autoscaler', 'max_replicas']));
    if (f.autoscalerCooldown !== undefined) a.cooldownUs = f.autoscalerCooldown as number;
    if (f.scaleUpWindow !== undefined) a.scaleUpStabilizationWindowUs = f.scaleUpWindow as number;
    if (f.scaleDownWindow !== undefined) a.scaleDownStabilizationWindowUs = f.scaleDownWindow as number;
    replicaBoundIssues(f, a, file, issues);
    out.autoscaling = a;
  }

  // Node pools: the file's, with --provisioning-delay's mean.
  const provisioningUs = f.provisioningDelay as number | undefined;
  if (converted.config.nodePools !== undefined) setConfigOrigin('nodePools', fileWhere(file, ['node_pools']));
  if (converted.config.nodePools !== undefined)
    out.nodePools = converted.config.nodePools.map((p) =>
      provisioningUs === undefined ? p : { ...p, provisioningDelay: { meanUs: provisioningUs, stddevUs: p.provisioningDelay?.stddevUs ?? 0 } },
    );

  // Lifecycle: the file's, with the flags on top (a delay flag sets the mean; the file's stddev stays).
  const fromFile = converted.config.lifecycle;
  if (fromFile !== undefined || LIFECYCLE_FLAGS.some((k) => f[k] !== undefined)) {
    const l: LifecycleInput = { ...fromFile };
    const loadingUs = f.loadingDelay as number | undefined;
    if (loadingUs !== undefined) l.loadingDelay = { meanUs: loadingUs, stddevUs: l.loadingDelay?.stddevUs ?? 0 };
    if (provisioningUs !== undefined) l.provisioningDelay = { meanUs: provisioningUs, stddevUs: l.provisioningDelay?.stddevUs ?? 0 };
    if (f.warmupDuration !== undefined) l.warmUpDurationUs = f.warmupDuration as number;
    if (f.warmupRequests !== undefined) l.warmUpRequestCount = f.warmupRequests as number;
    const factor = f.warmupTtftFactor as number | undefined;
    if (factor !== undefined) {
      if (factor < 1) issues.push({ where: '--warmup-ttft-factor', expected: 'a number >= 1 (1 = no slowdown)', found: describeFound(String(factor)) });
      else l.warmUpTtftFactor = factor;
    }
    const drain = f.drainPolicy as string | undefined;
    if (drain !== undefined) {
      const lower = drain.toLowerCase() as (typeof DRAIN_POLICIES)[number];
      if (DRAIN_POLICIES.includes(lower)) l.drainPolicy = lower;
      else issues.push({ where: '--drain-policy', expected: `one of ${DRAIN_POLICIES.join(', ')}`, found: describeFound(drain) });
    }
    out.lifecycle = l;
  }
  return out;
}

/** `minReplicas` > `maxReplicas` once the flags are applied (two file values are the file's issue). */
function replicaBoundIssues(f: Record<string, unknown>, a: AutoscalingInput, file: YamlFile | undefined, issues: UsageIssue[]): void {
  const { minReplicas: min, maxReplicas: max } = a;
  if (min === undefined || max === undefined || min <= max) return;
  if (f.autoscalerMin !== undefined) {
    const other = f.autoscalerMax !== undefined ? '--autoscaler-max' : fileWhere(file, ['autoscaler', 'max_replicas']);
    issues.push({ where: '--autoscaler-min', expected: `at most ${other} (${max})`, found: String(min) });
  } else if (f.autoscalerMax !== undefined) {
    issues.push({ where: '--autoscaler-max', expected: `at least ${fileWhere(file, ['autoscaler', 'min_replicas'])} (${min})`, found: String(max) });
  }
}
