import { formatParamPath, quoteExcerpt, zodIssueTexts } from '@blis/policies/internal';
import type { z } from 'zod';

/** A location in the document: keys and list positions from its root. */
export type At = readonly (string | number)[];

/** An issue before the YAML text gives it a line. */
export interface RawIssue {
  readonly at: At;
  readonly expected: string;
  readonly found: string;
}

/** `a routing`, `an autoscaler`. */
export const an = (word: string): string => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** How an offending value reads in an error message: short, and never the whole subtree. */
export { describeFound } from '@blis/policies/internal';

/** `tree.else.if.all[1].signal`; the whole document is `(document)`. */
export function formatAt(at: At): string {
  return formatParamPath(at, '') || '(document)';
}

/**
 * Validates `value` with `schema`, turning each zod issue into a located one through the zod
 * translator. The schemas word their messages as `expected ...`, which the translator keeps.
 */
export function checkWith<T>(schema: z.ZodType<T>, value: unknown, at: At, issues: RawIssue[]): T | undefined {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  for (const t of zodIssueTexts(r.error.issues, value)) issues.push({ at: [...at, ...t.path], expected: t.expected, found: t.found });
  return undefined;
}

/** One issue per key of `obj` not in `allowed`, located at that key. */
export function checkKeys(obj: Record<string, unknown>, allowed: readonly string[], at: At, issues: RawIssue[]): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) issues.push({ at: [...at, key], expected: `one of the keys ${allowed.join(', ')}`, found: `the key ${quoteExcerpt(key)}` });
  }
}
