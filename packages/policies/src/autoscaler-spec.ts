import { DEFAULT_POLICY_NAMES } from './registry.js';

/** What {@link resolveAutoscalerSpec} reads of a bundle's `autoscaler:` section. */
export interface AutoscalerSection {
  readonly policy?: string;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly analyzer?: { readonly [K in (typeof ANALYZER_KEYS)[number]]?: number };
}

/** The autoscaler that reads BLIS's `autoscaler.analyzer` thresholds (BLIS's only autoscaler). */
export const ANALYZER_AUTOSCALER = DEFAULT_POLICY_NAMES.autoscaler;

/** BLIS's analyzer keys, passed to {@link ANALYZER_AUTOSCALER} as params under the same names. */
export const ANALYZER_KEYS = [
  'kv_cache_threshold',
  'scale_up_threshold',
  'scale_down_boundary',
  'avg_input_tokens',
] as const;

/** A key path in the bundle: `["autoscaler", "analyzer", "kv_cache_threshold"]`. */
export type BundlePath = readonly (string | number)[];

/** The autoscaler that runs, its params, and where in the bundle each param came from. */
export interface AutoscalerSpec {
  readonly name: string;
  readonly params: Record<string, unknown>;
  readonly origins: ReadonlyMap<string, BundlePath>;
}

/**
 * Which autoscaler runs (`policy`, else the bundle's `autoscaler.policy`, else
 * `wva-saturation`) and its params: the analyzer's nonzero thresholds when it is
 * `wva-saturation`, and `autoscaler.params` unless the section names another policy. Settings
 * that do not reach the autoscaler that runs go to `warnings`; a param set twice (analyzer and
 * params) goes to `conflicts` (the analyzer's value is kept).
 */
export function resolveAutoscalerSpec(
  section: AutoscalerSection | undefined,
  policy: string | undefined,
  warnings: string[],
  conflicts: { path: BundlePath; message: string }[] = [],
): AutoscalerSpec {
  const a = section ?? {};
  const name = policy || a.policy || DEFAULT_POLICY_NAMES.autoscaler;
  const params: Record<string, unknown> = {};
  const origins = new Map<string, BundlePath>();
  const analyzer = a.analyzer ?? {};
  const given = ANALYZER_KEYS.filter((k) => (analyzer[k] ?? 0) !== 0);
  if (given.length > 0 && name !== ANALYZER_AUTOSCALER) {
    warnings.push(`autoscaler.analyzer ignored: autoscaler "${name}" does not use it (${ANALYZER_AUTOSCALER} does)`);
  } else {
    for (const k of given) {
      params[k] = analyzer[k];
      origins.set(k, ['autoscaler', 'analyzer', k]);
    }
  }
  if (a.params !== undefined) {
    if (a.policy && a.policy !== name) {
      warnings.push(`autoscaler.params ignored: they belong to "${a.policy}", but "${name}" runs`);
    } else {
      for (const [k, v] of Object.entries(a.params)) {
        const first = origins.get(k);
        if (first !== undefined) {
          conflicts.push({
            path: ['autoscaler', 'params', k],
            message: `"${k}" is also set by ${first.join('.')}; set it once`,
          });
          continue;
        }
        params[k] = v;
        origins.set(k, ['autoscaler', 'params', k]);
      }
    }
  }
  return { name, params, origins };
}
