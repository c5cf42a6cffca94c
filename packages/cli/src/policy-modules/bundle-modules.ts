import { describeFound } from '@blis/policies/internal';
import { basename, dirname, resolve } from 'node:path';
import type { PolicyKind } from '@blis/policies';
import type { UsageIssue } from '../errors/usage-error.js';
import type { YamlFile } from '../inputs/yaml-file.js';
import { isModulePath } from './module-path.js';

/** A module the policy YAML names, with the section's params and where it was named. */
export interface BundleModuleRef {
  readonly kind: PolicyKind;
  /** The path as written in the file. */
  readonly given: string;
  /** Resolved against the YAML file's folder. */
  readonly absPath: string;
  /** `policy.yaml:4 routing.type (./my-router.mjs)`. */
  readonly where: string;
  readonly params: Record<string, unknown>;
  /** For scorers: the position in `routing.scorers`. */
  readonly index?: number;
}

/** The policy YAML with its module references taken out, so the bundle parser sees only registry names. */
export interface BundleModules {
  readonly file: YamlFile;
  /** A copy of the file's value: `type` renamed `policy`; module sections without `policy` and `params`. */
  readonly value: Record<string, unknown>;
  readonly modules: BundleModuleRef[];
  readonly scorers: BundleModuleRef[];
  /** Sections that spelled their policy `type` (messages about `policy` then name `type`). */
  readonly typeSections: ReadonlySet<string>;
  /** Settings a module section keeps that no built-in policy will read. */
  readonly warnings: string[];
}

const SECTIONS = ['admission', 'routing', 'priority', 'autoscaler'] as const;

/**
 * Finds the module paths in a `--policy-config` file: `policy:` (or its alias `type:`) of the
 * admission, routing, priority and autoscaler sections, `scheduler:`, and `routing.scorers[].name`.
 */
export function extractBundleModules(file: YamlFile, issues: UsageIssue[]): BundleModules {
  const raw = file.value;
  const isMap = raw !== null && typeof raw === 'object' && !Array.isArray(raw);
  // Not a mapping: left as it is, for the bundle parser to say so.
  const value = (isMap ? { ...(raw as Record<string, unknown>) } : raw) as Record<string, unknown>;
  const out: BundleModules = { file, value, modules: [], scorers: [], typeSections: new Set(), warnings: [] };
  if (!isMap) return out;
  const dir = dirname(file.path);
  const at = (path: (string | number)[], given: string) => {
    const line = file.lineOf(path);
    return `${file.path}${line !== undefined ? `:${line}` : ''} ${path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('')} (${given})`;
  };
  for (const section of SECTIONS) {
    const s = value[section];
    if (s === null || typeof s !== 'object' || Array.isArray(s)) continue;
    const copy = { ...(s as Record<string, unknown>) };
    value[section] = copy;
    if ('type' in copy) {
      if ('policy' in copy) {
        issues.push({ where: `${file.path}:${file.lineOf([section, 'type']) ?? '?'} ${section}.type`, expected: `either ${section}.policy or ${section}.type (an alias)`, found: 'both' });
        continue;
      }
      copy.policy = copy.type;
      delete copy.type;
      (out.typeSections as Set<string>).add(section);
    }
    const key = out.typeSections.has(section) ? 'type' : 'policy';
    if (typeof copy.policy === 'string' && isModulePath(copy.policy)) {
      const params = copy.params;
      out.modules.push({
        kind: section,
        given: copy.policy,
        absPath: resolve(dir, copy.policy),
        where: at([section, key], copy.policy),
        params: params !== null && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>) : {},
      });
      if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params)))
        issues.push({ where: `${file.path}:${file.lineOf([section, 'params']) ?? '?'} ${section}.params`, expected: 'a map of parameter names to values', found: describeFound(params) });
      delete copy.policy;
      delete copy.params;
      if (section === 'routing' && copy.scorers !== undefined) {
        out.warnings.push(`routing.scorers ignored: the routing policy is the module ${basename(String(out.modules.at(-1)?.given))}, not weighted`);
        delete copy.scorers;
      }
    }
    if (section === 'routing' && Array.isArray(copy.scorers)) {
      copy.scorers = copy.scorers.map((entry: unknown, index: number) => {
        const e = entry as Record<string, unknown> | null;
        if (e === null || typeof e !== 'object' || typeof e.name !== 'string' || !isModulePath(e.name)) return entry;
        out.scorers.push({ kind: 'scorer', given: e.name, absPath: resolve(dir, e.name), where: at(['routing', 'scorers', index, 'name'], e.name), params: e.params !== null && typeof e.params === 'object' ? (e.params as Record<string, unknown>) : {}, index });
        return { ...e };
      });
    }
  }
  if (typeof value.scheduler === 'string' && isModulePath(value.scheduler)) {
    out.modules.push({ kind: 'scheduler', given: value.scheduler, absPath: resolve(dir, value.scheduler), where: at(['scheduler'], value.scheduler), params: {} });
    delete value.scheduler;
  }
  return out;
}
