import { describeFound, formatParamPath, valueExcerpt, zodIssueTexts } from '@blis/policies/internal';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { InputIssue } from '@blis/workload';
import { parseYamlInput, readYamlText, yamlNumberSource } from '@blis/workload/internal';
import type { ZodError } from 'zod';
import { SweepSpecError, type SweepIssue } from './sweep-spec-error.js';
import { type SweepSpec, SweepSpecSchema } from './sweep-spec-schema.js';

/** A validated sweep spec, with the file it came from and a way to name the line of a field. */
export interface LoadedSweepSpec {
  /** The file as given. */
  file: string;
  /** The spec, with relative paths in `base` resolved against the file's folder. */
  spec: SweepSpec;
  /** The line a path of keys starts on (the nearest existing parent when the path is absent). */
  lineOf(path: readonly (string | number)[]): number | undefined;
  /** `file:line field`, the form every issue's `where` takes. */
  where(path: readonly (string | number)[]): string;
  /** A number as the file wrote it, when YAML could not hold it exactly (beyond 2^53, or 1e400); else undefined. */
  numberText?(path: readonly (string | number)[]): string | undefined;
}

/** A YAML input problem as a sweep issue (`file:line`). */
function sweepIssue(i: InputIssue): SweepIssue {
  return { where: `${i.file}${i.line !== undefined ? `:${i.line}` : ''}`, expected: i.expected, found: i.found };
}

/** Fields of a `SimulationConfigInput` that hold file paths, resolved against the sweep file's folder. */
const PATH_FIELDS: readonly (readonly string[])[] = [['workload', 'path'], ['workload', 'dataPath'], ['modelConfigPath'], ['hardwareConfigPath']];

/** Reads, parses and validates a sweep YAML file; every error names the file, the line and the field. */
export function loadSweepSpec(file: string): LoadedSweepSpec {
  const read = readYamlText(file, 'sweep spec file');
  if (!read.ok) throw new SweepSpecError(read.issues.map(sweepIssue));
  const parsed = parseYamlInput(read.text, file);
  if (!parsed.ok) throw new SweepSpecError(parsed.issues.map(sweepIssue));
  const { doc, lineCounter: lc } = parsed.yaml;
  const lineOf = (p: readonly (string | number)[]): number | undefined => {
    for (let n = p.length; n >= 0; n--) {
      const node = doc.getIn(p.slice(0, n), true) as { range?: [number, number, number] } | undefined;
      if (node?.range !== undefined) return lc.linePos(node.range[0]).line;
      if (n > 0) {
        // A scalar's line is its key's: find the pair in the parent map.
        const parent = doc.getIn(p.slice(0, n - 1), true) as { items?: { key?: { value?: unknown; range?: [number, number, number] } }[] } | undefined;
        const pair = parent?.items?.find((it) => it.key?.value === p[n - 1]);
        if (pair?.key?.range !== undefined) return lc.linePos(pair.key.range[0]).line;
      }
    }
    return undefined;
  };
  const where = (p: readonly (string | number)[]) => {
    const line = lineOf(p);
    return `${file}${line !== undefined ? `:${line}` : ''}${p.length > 0 ? ` ${formatParamPath(p, '')}` : ''}`;
  };
  const raw = parsed.yaml.value;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new SweepSpecError([{ where: `${file}:1`, expected: 'a mapping with base, seeds, search, parameters, metrics', found: raw === null ? 'an empty document' : valueExcerpt(raw) }]);
  const r = SweepSpecSchema.safeParse(raw);
  const numberText = (p: readonly (string | number)[]) => {
    const t = yamlNumberSource(parsed.yaml, p);
    return t === undefined ? undefined : t.length > 60 ? describeFound(t) : t;
  };
  if (!r.success) throw new SweepSpecError(zodIssues(r.error, raw, where, numberText));
  const spec = r.data;
  const dir = dirname(file);
  for (const path of PATH_FIELDS) resolvePathField(spec.base, path, dir);
  return { file, spec, lineOf, where, numberText };
}

/** Rewrites `base.<path>` relative to the sweep file's folder, as a path relative to the working directory. */
function resolvePathField(base: Record<string, unknown>, path: readonly string[], dir: string): void {
  let obj: unknown = base;
  for (const k of path.slice(0, -1)) obj = obj !== null && typeof obj === 'object' ? (obj as Record<string, unknown>)[k] : undefined;
  if (obj === null || typeof obj !== 'object') return;
  const o = obj as Record<string, unknown>;
  const key = path[path.length - 1];
  const v = o[key];
  if (typeof v === 'string' && !isAbsolute(v)) o[key] = relativeToCwd(resolve(dir, v));
}

/** A path as the working directory sees it; the results record it, so keep it short and portable. */
export function relativeToCwd(absolute: string): string {
  const rel = relative(process.cwd(), absolute);
  return rel === '' ? '.' : rel;
}

function zodIssues(err: ZodError, raw: unknown, where: (p: readonly (string | number)[]) => string, numberText: (p: readonly (string | number)[]) => string | undefined): SweepIssue[] {
  return err.issues.map((i) => {
    const path = i.path as (string | number)[];
    if (i.code === 'unrecognized_keys') return { where: where([...path, i.keys[0]]), expected: `a known field (${knownFields(path)})`, found: `unknown field${i.keys.length === 1 ? '' : 's'} ${i.keys.map((k) => describeFound(k)).join(', ')}` };
    const [t] = zodIssueTexts([i], raw);
    // A number as it was written when YAML could not hold it (9007199254740993 reads ...992).
    const written = numberText(path);
    return { where: where(path), expected: t.expected, found: written ?? t.found };
  });
}

function knownFields(path: readonly (string | number)[]): string {
  if (path.length === 0) return 'base, seeds, search, parameters, metrics';
  if (path[0] === 'search') return 'kind, samples, seed';
  if (path[0] === 'parameters') return 'min, max, step, integer';
  return 'see docs/sweeps.md';
}
