import { describeFound, formatParamPath, messageText } from '@blis/policies/internal';
import type { PolicyKind } from '@blis/policies';
import type { UsageIssue } from '../errors/usage-error.js';
import { MODULE_KINDS } from './module-path.js';
import { type ParamValueIssue, parsePolicyParamValue } from './policy-param-value.js';

/** Params given by `--policy-param`, by policy kind; scorers' by scorer name. */
export interface FlagParams {
  readonly byKind: Partial<Record<Exclude<PolicyKind, 'scorer'>, Record<string, unknown>>>;
  readonly scorers: Record<string, Record<string, unknown>>;
  /** The text each top-level param came from, for messages: `routing.alpha` -> `--policy-param routing.alpha=0.5`. */
  readonly origin: Map<string, string>;
}

const FORMAT = `<kind>.<key>=<value> with kind one of ${MODULE_KINDS.join(', ')} (scorer.<name>.<key>=<value> for a scorer)`;

/**
 * Parses repeated `--policy-param kind.key=value` (helm's `--set`, per policy kind). The value is
 * read by {@link parsePolicyParamValue}: `0.5`, `true`, `[1, 2]` and `{a: 1}` are a number, a
 * boolean, a list and a map, a quoted value or anything else a string, and hex, octal or
 * infinite numbers are refused; a dotted key nests (`routing.limits.max=3`). A later setting of
 * the same key wins, as with `--set`.
 */
export function parsePolicyParamFlags(values: readonly string[], issues: UsageIssue[]): FlagParams {
  const out: FlagParams = { byKind: {}, scorers: {}, origin: new Map() };
  for (const text of values) {
    const eq = text.indexOf('=');
    const path = (eq < 0 ? text : text.slice(0, eq)).split('.');
    const kind = path[0] as PolicyKind;
    const keys = kind === 'scorer' ? path.slice(2) : path.slice(1);
    if (eq < 0 || !MODULE_KINDS.includes(kind) || keys.length === 0 || keys.some((k) => k === '') || (kind === 'scorer' && path[1] === '')) {
      issues.push({ where: '--policy-param', expected: FORMAT, found: describeFound(text) });
      continue;
    }
    const valueIssues: ParamValueIssue[] = [];
    const value = parsePolicyParamValue(text.slice(eq + 1), valueIssues);
    if (valueIssues.length > 0) {
      // Named by the key (and the item inside a list or map), never the whole text: a value can be kilobytes.
      for (const v of valueIssues) issues.push({ where: `--policy-param ${messageText(formatParamPath([...path, ...v.at], ''), 100)}`, expected: v.expected, found: v.found });
      continue;
    }
    let target: Record<string, unknown>;
    if (kind === 'scorer') target = out.scorers[path[1]] ??= {};
    else target = out.byKind[kind] ??= {};
    for (const k of keys.slice(0, -1)) {
      const next = target[k];
      target = next !== null && typeof next === 'object' && !Array.isArray(next) ? (next as Record<string, unknown>) : (target[k] = {});
    }
    target[keys[keys.length - 1]] = value;
    out.origin.set(kind === 'scorer' ? `scorer.${path[1]}.${keys[0]}` : `${kind}.${keys[0]}`, `--policy-param ${text}`);
  }
  return out;
}
