import { DEFAULT_SCORER_CONFIGS, listPolicies } from '@blis/policies';
import { formatParamPath, valueExcerpt } from '@blis/policies/internal';
import type { ParameterValue } from './sweep-spec-schema.js';

type Json = Record<string, unknown>;

const SCORERS_PREFIX = 'routing.scorers.';
const SPEC_PREFIX = 'workload.spec.';

/** The spec-workload fields a parameter reaches through `workload.<field>` (sugar for `workload.spec.<field>`). */
const SPEC_SUGAR = new Set(['aggregate_rate', 'num_requests', 'horizon']);

/**
 * A parameter path with list positions as dot segments: `clients[0].rate_fraction` (the form
 * messages show) and `clients.0.rate_fraction` (the older form) name the same field.
 */
export function dottedPath(path: string): string {
  return path.replace(/\[(\d+)\]/g, '.$1');
}

/** Keys of a parameter path as a message shows them: `clients[0].rate_fraction`. */
function keysText(keys: readonly string[]): string {
  return formatParamPath(keys.map((k) => (/^\d+$/.test(k) ? Number(k) : k)), '');
}

/** Whether a parameter path edits the workload spec itself (it must then be inlined in the config). */
export function editsWorkloadSpec(path: string): boolean {
  return path.startsWith(SPEC_PREFIX) || (path.startsWith('workload.') && SPEC_SUGAR.has(path.slice('workload.'.length)));
}

/**
 * Sets one parameter in `config` (a `SimulationConfigInput`, edited in place); returns why it
 * cannot, or undefined. Special forms: `routing.scorers.<name>` is the weight of that scorer
 * (added to the scorer list, or to BLIS's default profile when the base has none);
 * `workload.aggregate_rate` (also `num_requests`, `horizon`) and `workload.spec.<path>` edit a
 * spec workload's spec, which the plan has inlined. Other paths are dot paths, a number segment
 * (`.0` or `[0]`) indexing an array. Unknown fields are left for `SimulationConfigSchema` (strict) to refuse.
 */
export function applyParameter(config: Record<string, unknown>, written: string, value: ParameterValue): string | undefined {
  const path = dottedPath(written);
  if (path === 'seed') return 'no `seed` parameter (list the seeds under `seeds:`)';
  if (path.startsWith(SCORERS_PREFIX)) return setScorerWeight(config, path.slice(SCORERS_PREFIX.length), value);
  if (editsWorkloadSpec(path)) {
    const w = config.workload as Json | undefined;
    if (w?.kind !== 'spec' || w.spec === null || typeof w.spec !== 'object') return `a base workload of kind spec for ${path}`;
    const inner = path.startsWith(SPEC_PREFIX) ? path.slice(SPEC_PREFIX.length) : path.slice('workload.'.length);
    return setPath(w.spec as Json, inner.split('.'), value);
  }
  if (path === 'workload.rate' && (config.workload as Json | undefined)?.kind === 'spec') return 'workload.aggregate_rate for a spec workload (workload.rate is the synthetic workload\'s field)';
  return setPath(config, path.split('.'), value);
}

function setScorerWeight(config: Json, name: string, value: ParameterValue): string | undefined {
  const known = listPolicies().scorer;
  if (!known.includes(name)) return `a scorer name after routing.scorers. (one of ${known.join(', ')})`;
  if (typeof value !== 'number' || !(value >= 0)) return `a weight >= 0 for scorer ${name}, found ${valueExcerpt(value)}`;
  const routing = (config.routing ??= {}) as Json;
  if (routing.scorers === undefined) routing.scorers = DEFAULT_SCORER_CONFIGS.map((s) => ({ name: s.name, weight: s.weight }));
  if (!Array.isArray(routing.scorers)) return 'routing.scorers to be a list in the base';
  const scorers = routing.scorers as Json[];
  const at = scorers.find((s) => s.name === name);
  if (at !== undefined) at.weight = value;
  else scorers.push({ name, weight: value });
  return undefined;
}

function setPath(root: Json, keys: readonly string[], value: ParameterValue): string | undefined {
  if (keys.some((k) => k === '')) return 'a dot path with no empty segment';
  let obj: unknown = root;
  for (let i = 0; i < keys.length - 1; i++) {
    const k = keys[i];
    let next: unknown;
    if (Array.isArray(obj)) {
      next = obj[Number(k)];
      if (next === undefined) return `an existing element ${k} of ${keysText(keys.slice(0, i))} (the list has ${obj.length})`;
    } else {
      const holder = obj as Json;
      next = holder[k];
      if (next === undefined) {
        next = {};
        holder[k] = next;
      }
    }
    if (next === null || typeof next !== 'object') return `${keysText(keys.slice(0, i + 1))} to be a section, found ${valueExcerpt(next)}`;
    obj = next;
  }
  const last = keys[keys.length - 1];
  if (Array.isArray(obj)) {
    const i = Number(last);
    if (!Number.isInteger(i) || i < 0 || i >= obj.length) return `an existing element ${last} of ${keysText(keys.slice(0, -1))} (the list has ${obj.length})`;
    obj[i] = value;
  } else (obj as Json)[last] = value;
  return undefined;
}
