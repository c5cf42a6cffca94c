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
export function describeFound(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    const text = JSON.stringify(v);
    return text.length <= 60 ? `the list ${text}` : `a list of ${v.length}`;
  }
  if (isPlainObject(v)) {
    const keys = Object.keys(v);
    return keys.length === 0 ? 'an empty map' : `a map with ${keys.join(', ')}`;
  }
  return typeof v;
}

/** `tree.else.if.all[1].signal`; the whole document is `(document)`. */
export function formatAt(at: At): string {
  let out = '';
  for (const p of at) out += typeof p === 'number' ? `[${p}]` : out === '' ? p : `.${p}`;
  return out === '' ? '(document)' : out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

/**
 * Validates `value` with `schema`, turning each zod issue into a located one. The schemas set
 * their messages to what is expected ("a finite number"), so the issue reads naturally.
 */
export function checkWith<T>(schema: z.ZodType<T>, value: unknown, at: At, issues: RawIssue[]): T | undefined {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  for (const i of r.error.issues) {
    const sub = i.path.filter((p): p is string | number => typeof p !== 'symbol');
    issues.push({ at: [...at, ...sub], expected: i.message, found: describeFound(valueAt(value, i.path)) });
  }
  return undefined;
}

/** One issue per key of `obj` not in `allowed`, located at that key. */
export function checkKeys(obj: Record<string, unknown>, allowed: readonly string[], at: At, issues: RawIssue[]): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) issues.push({ at: [...at, key], expected: `one of the keys ${allowed.join(', ')}`, found: `the key "${key}"` });
  }
}
