import { formatParamPath, quoteExcerpt, splitPolicyMessage, describeFound } from '@blis/policies/internal';
import type { SimulationConfigInput } from '@blis/cluster';
import { type PolicyKind, type PolicyOverrides, type PolicyRegistry, PolicyParamsError, policyContext } from '@blis/policies';
import type { UsageIssue } from '../errors/usage-error.js';
import type { ModuleKind, PolicySetup } from './policy-setup.js';

type Overrides = { -readonly [K in keyof PolicyOverrides]: PolicyOverrides[K] };

/**
 * `overrides` with the `--policy-param` params of admission, routing and priority on top, for
 * the kinds a built-in policy runs (a module gets its params when it is built).
 */
export function withFlagParams(overrides: Overrides, setup: PolicySetup): Overrides {
  const out = { ...overrides };
  for (const kind of ['admission', 'routing', 'priority'] as const) {
    const extra = setup.flagParams.byKind[kind];
    if (extra === undefined || setup.modules[kind] !== undefined) continue;
    out[kind] = { ...out[kind], params: { ...out[kind]?.params, ...extra } };
  }
  return out;
}

/** A policy parameter set by a flag of its own (`--routing-scorers` sets the router's `scorers`). */
export interface ParamFlag {
  kind: ModuleKind;
  param: string;
  flag: string;
  /** The flag's text as given, quoted when the policy takes no such parameter. */
  text: string;
  /** Which policies do take it, for that message. */
  takenBy: string;
}

/**
 * Puts `--policy-param scorer.<name>.<key>` on the weighted router's scorers, then builds every
 * built-in policy that `--policy-param` or a parameter's own flag (`paramFlags`) gave params to,
 * so that a bad one is reported now, named by the flag (`--policy-param routing.alpha`,
 * `--routing-scorers`), rather than by its config path (`params.scorers`) when the run starts.
 */
export function builtinParamIssues(cfg: SimulationConfigInput, setup: PolicySetup, registry: PolicyRegistry, paramFlags: readonly ParamFlag[] = []): UsageIssue[] {
  const issues: UsageIssue[] = [];
  const scorerParams = Object.entries(setup.flagParams.scorers);
  if (scorerParams.length > 0) {
    const scorers = cfg.routing?.scorers;
    for (const [name, params] of scorerParams) {
      const entry = scorers?.find((s) => s.name === name);
      if (entry === undefined)
        issues.push({ where: `--policy-param scorer.${name}`, expected: `a scorer of the weighted router's --routing-scorers or routing.scorers (${scorers?.map((s) => s.name).join(', ') || 'none given'})`, found: describeFound(name) });
      else (entry as { params?: Record<string, unknown> }).params = { ...entry.params, ...params };
    }
  }
  const checks: [ModuleKind, string | undefined, Record<string, unknown> | undefined][] = [
    ['admission', cfg.admission?.policy, cfg.admission?.params],
    ['priority', cfg.priority?.policy, cfg.priority?.params],
    ['routing', cfg.routing?.policy, { ...cfg.routing?.params, ...(cfg.routing?.scorers !== undefined ? { scorers: cfg.routing.scorers } : {}) }],
    ['scheduler', cfg.scheduler?.policy, cfg.scheduler?.params],
    ['decider', cfg.pd?.decider ?? 'never', cfg.pd?.deciderParams],
    ['autoscaler', cfg.autoscaling?.policy ?? 'wva-saturation', cfg.autoscaling?.params],
  ];
  for (const [kind, name, params] of checks) {
    const own = paramFlags.filter((p) => p.kind === kind);
    const scorerGiven = kind === 'routing' && scorerParams.length > 0;
    if ((setup.flagParams.byKind[kind] === undefined && !scorerGiven && own.length === 0) || setup.modules[kind] !== undefined || name === undefined) continue;
    if (!registry.has(kind, name)) continue; // an unknown name is reported already
    try {
      registry.factory(kind, name)({ ...policyContext({ numInstances: cfg.numInstances ?? 1, blockSizeTokens: cfg.blockSizeTokens }), params: params ?? {} });
    } catch (e) {
      if (!(e instanceof PolicyParamsError)) {
        issues.push({ where: `--policy-param ${kind}`, expected: `params the ${kindLabel(kind)} "${name}" accepts`, found: e instanceof Error ? e.message : String(e) });
        continue;
      }
      for (const i of e.issues) {
        const byFlag = own.find((p) => p.param === i.path[0]);
        if (byFlag !== undefined) issues.push(paramFlagIssue(byFlag, name, i.path, i.message));
        else issues.push({ where: `--policy-param ${formatParamPath(i.path, kind)}`, ...splitPolicyMessage(i.message, i.path) });
      }
    }
  }
  return issues;
}

/** A policy's refusal of the parameter a flag of its own gave it, named by that flag. */
function paramFlagIssue(p: ParamFlag, policy: string, path: readonly (string | number)[], message: string): UsageIssue {
  if (path.length === 1 && message.startsWith('unknown field'))
    return { where: p.flag, expected: `no ${p.flag} for ${kindLabel(p.kind)} "${policy}" (it is for ${p.takenBy})`, found: quoteExcerpt(p.text) };
  const { expected, found } = splitPolicyMessage(message, path);
  // The policy's own words say `found 0` for the parsed number; the user typed the flag's text.
  return { where: p.flag, expected, found: path.length === 1 ? quoteExcerpt(p.text) : found };
}

function kindLabel(kind: PolicyKind): string {
  return kind === 'decider' ? 'P/D decider' : kind === 'scheduler' || kind === 'autoscaler' ? kind : `${kind} policy`;
}
