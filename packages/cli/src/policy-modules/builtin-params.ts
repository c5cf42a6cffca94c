import type { SimulationConfigInput } from '@blis/cluster';
import { type PolicyKind, type PolicyOverrides, type PolicyRegistry, PolicyParamsError, formatParamPath, policyContext, quoteExcerpt, splitPolicyMessage } from '@blis/policies';
import type { UsageIssue } from '../usage-error.js';
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

/**
 * Puts `--policy-param scorer.<name>.<key>` on the weighted router's scorers, then builds every
 * built-in policy that `--policy-param` (or, for the router, `--routing-scorers`) gave params to,
 * so that a bad one is reported now, named by the flag (`--policy-param routing.alpha`,
 * `--routing-scorers`), rather than by its config path (`params.scorers`) when the run starts.
 */
export function builtinParamIssues(cfg: SimulationConfigInput, setup: PolicySetup, registry: PolicyRegistry, routingScorersFlag?: string): UsageIssue[] {
  const issues: UsageIssue[] = [];
  const scorerParams = Object.entries(setup.flagParams.scorers);
  if (scorerParams.length > 0) {
    const scorers = cfg.routing?.scorers;
    for (const [name, params] of scorerParams) {
      const entry = scorers?.find((s) => s.name === name);
      if (entry === undefined)
        issues.push({ where: `--policy-param scorer.${name}`, expected: `a scorer of the weighted router's --routing-scorers or routing.scorers (${scorers?.map((s) => s.name).join(', ') || 'none given'})`, found: JSON.stringify(name) });
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
    const scorerGiven = kind === 'routing' && (scorerParams.length > 0 || routingScorersFlag !== undefined);
    if ((setup.flagParams.byKind[kind] === undefined && !scorerGiven) || setup.modules[kind] !== undefined || name === undefined) continue;
    if (!registry.has(kind, name)) continue; // an unknown name is reported already
    try {
      registry.factory(kind, name)({ ...policyContext({ numInstances: cfg.numInstances ?? 1, blockSizeTokens: cfg.blockSizeTokens }), params: params ?? {} });
    } catch (e) {
      if (!(e instanceof PolicyParamsError)) {
        issues.push({ where: `--policy-param ${kind}`, expected: `params the ${kindLabel(kind)} "${name}" accepts`, found: e instanceof Error ? e.message : String(e) });
        continue;
      }
      for (const i of e.issues) {
        if (kind === 'routing' && i.path[0] === 'scorers' && routingScorersFlag !== undefined) issues.push(scorersIssue(name, i.path, i.message, routingScorersFlag));
        else issues.push({ where: `--policy-param ${formatParamPath(i.path, kind)}`, ...splitPolicyMessage(i.message, i.path) });
      }
    }
  }
  return issues;
}

/** A routing policy's refusal of the scorers `--routing-scorers` gave it, named by that flag. */
function scorersIssue(policy: string, path: readonly (string | number)[], message: string, flagText: string): UsageIssue {
  if (path.length === 1 && message.startsWith('unknown field'))
    return { where: '--routing-scorers', expected: `no scorers for routing policy "${policy}" (scorers are for a scorer-based policy such as --routing-policy weighted)`, found: quoteExcerpt(flagText) };
  return { where: '--routing-scorers', ...splitPolicyMessage(message, path) };
}

function kindLabel(kind: PolicyKind): string {
  return kind === 'decider' ? 'P/D decider' : kind === 'scheduler' || kind === 'autoscaler' ? kind : `${kind} policy`;
}
