import { dirname, readFileSync } from '#host-files';
import { LineCounter, parseDocument } from 'yaml';
import type { ZodError } from 'zod';
import { zodIssueTexts } from '@blis/policies';
import { type InputIssue, WorkloadSpecError } from './errors.js';
import { type WorkloadSpec, WorkloadSpecSchema } from './spec-schema.js';

/** A validated spec plus the directory relative paths in it (empirical CSVs) resolve against. */
export type LoadedSpec = WorkloadSpec & { readonly baseDir?: string };

function issuesOf(err: ZodError, file: string, lineOf: (path: readonly PropertyKey[]) => number | undefined, raw: unknown): InputIssue[] {
  return zodIssueTexts(err.issues, raw).map((t) => ({ file, line: lineOf(t.path), field: t.path.join('.') || '(root)', expected: t.expected, found: t.found }));
}

/** Validates an already-parsed spec object (library use). */
export function parseWorkloadSpec(raw: unknown, file = '<spec>'): LoadedSpec {
  const r = WorkloadSpecSchema.safeParse(raw);
  if (!r.success) throw new WorkloadSpecError(issuesOf(r.error, file, () => undefined, raw));
  return r.data;
}

/** Reads, parses and validates a WorkloadSpec v2 YAML file; every error names its line. */
export function loadWorkloadSpec(path: string): LoadedSpec {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new WorkloadSpecError([{ file: path, expected: 'a readable workload spec', found: (e as NodeJS.ErrnoException).code ?? String(e) }]);
  }
  return { ...parseWorkloadSpecText(text, path), baseDir: dirname(path) };
}

/**
 * Parses and validates a WorkloadSpec v2 from YAML text (an upload, no file system); every error
 * names `file` and its line. Relative paths in it (empirical CSVs) have no directory to resolve in.
 */
export function parseWorkloadSpecText(text: string, file: string): LoadedSpec {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc });
  if (doc.errors.length > 0)
    throw new WorkloadSpecError(doc.errors.map((e) => ({ file, line: lc.linePos(e.pos[0]).line, expected: 'valid YAML', found: e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '') })));
  const raw = doc.toJS();
  const lineOf = (p: readonly PropertyKey[]): number | undefined => {
    for (let n = p.length; n >= 0; n--) {
      const node = doc.getIn(p.slice(0, n) as (string | number)[], true) as { range?: [number, number, number] } | undefined;
      if (node?.range !== undefined) return lc.linePos(node.range[0]).line;
      // A pair's key node carries the line when the value is a scalar.
      if (n > 0) {
        const parent = doc.getIn(p.slice(0, n - 1) as (string | number)[], true) as { items?: { key?: { value?: unknown; range?: [number, number, number] } }[] } | undefined;
        const pair = parent?.items?.find((it) => it.key?.value === p[n - 1]);
        if (pair?.key?.range !== undefined) return lc.linePos(pair.key.range[0]).line;
      }
    }
    return undefined;
  };
  const r = WorkloadSpecSchema.safeParse(raw);
  if (!r.success) throw new WorkloadSpecError(issuesOf(r.error, file, lineOf, raw));
  return r.data;
}
