import type * as z from 'zod';
import { MAX_EXACT_INTEGER } from './decimal-number.js';
import { describeFound } from './found-text.js';

// The one translation from a zod issue to what a user reads: `expected` in plain words from the
// issue's kind (never zod's "Invalid input"), `found` as a short excerpt of the value at the
// issue's path (NaN and infinities as `.nan`/`.inf`, never `null`). Every reader of a YAML or
// JSON input (workload specs, policy bundles, sweep specs, evaluate requests, result files)
// words its schema problems through it.

type Issue = z.core.$ZodIssue;

const NOUN: Readonly<Record<string, string>> = {
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  string: 'a string',
  boolean: 'true or false',
  object: 'a mapping',
  record: 'a mapping',
  map: 'a mapping',
  array: 'a list',
  tuple: 'a list',
  set: 'a list',
  null: 'null',
  undefined: 'nothing',
  date: 'a date',
  literal: 'a literal value',
};

/** zod's placeholder wording, which says nothing to a user. */
const PLACEHOLDER = /^Invalid (?:input|option|value)$/;

/** The value at `path` inside `root`, or undefined when the path leads nowhere. */
export function valueAtPath(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

function bound(op: string, b: number | bigint, origin: string): string {
  const n = typeof b === 'bigint' ? b.toString() : b === MAX_EXACT_INTEGER ? String(MAX_EXACT_INTEGER) : String(b);
  switch (origin) {
    case 'array':
    case 'set':
      return `a list with ${op} ${n} item(s)`;
    case 'string':
      return `a string with ${op} ${n} character(s)`;
    case 'file':
      return `a file of ${op} ${n} byte(s)`;
    case 'int':
    case 'bigint':
      return `an integer ${op} ${n}`;
    case 'date':
      return `a date ${op} ${n}`;
    default:
      return `a number ${op} ${n}`;
  }
}

/** What an issue expected, in words: "a number > 0", "one of "fcfs", "priority"", "a list". */
export function describeZodExpected(i: Issue, value?: unknown): string {
  // A schema's own wording ("expected a finite number of seconds >= 0") says it best; zod's defaults never start so.
  const own = /^expected (.+)$/s.exec(i.message);
  if (own !== null && i.code !== 'unrecognized_keys') return own[1];
  switch (i.code) {
    case 'invalid_type': {
      if (i.expected === 'number' && typeof value === 'number') return 'a finite number';
      return NOUN[i.expected] ?? `a ${i.expected}`;
    }
    case 'too_small':
      return bound(i.inclusive ? '>=' : '>', i.minimum, i.origin);
    case 'too_big':
      return bound(i.inclusive ? '<=' : '<', i.maximum, i.origin);
    case 'invalid_value':
      return i.values.length === 1 ? JSON.stringify(i.values[0]) : `one of ${i.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union': {
      const d = i as { discriminator?: string; options?: unknown[] };
      if (d.options !== undefined && d.options.length > 0) return `one of ${d.options.map((o) => JSON.stringify(o)).join(', ')}`;
      // Each branch's own complaint about the value itself, deduplicated: "a number or "auto"".
      const alternatives = [...new Set(i.errors.flatMap((branch) => branch.filter((b) => b.path.length === 0).map((b) => describeZodExpected(b, value))))];
      return alternatives.length > 0 ? alternatives.join(' or ') : 'one of the accepted forms (see the docs)';
    }
    case 'unrecognized_keys':
      return 'a known field';
    case 'invalid_format':
      return i.format === 'regex' && 'pattern' in i ? `text matching ${String(i.pattern)}` : `a valid ${i.format}`;
    case 'not_multiple_of':
      return `a multiple of ${String(i.divisor)}`;
    case 'invalid_key':
      return i.issues[0] !== undefined ? `keys that are ${describeZodExpected(i.issues[0])}` : 'valid keys';
    case 'invalid_element':
      return i.issues[0] !== undefined ? `elements that are ${describeZodExpected(i.issues[0])}` : 'valid elements';
    case 'custom':
      return PLACEHOLDER.test(i.message) ? 'a valid value' : i.message;
    default: {
      const m = (i as { message: string }).message.replace(/^Invalid input: (?:expected )?/, '');
      return PLACEHOLDER.test(m) ? 'a valid value' : m;
    }
  }
}

/** One issue as a user reads it: the path within the input, what was expected and what was found. */
export interface ZodIssueText {
  /** Where in the input: for an unknown field, the field itself. */
  path: (string | number)[];
  expected: string;
  found: string;
}

/**
 * Translates zod issues about `root` (the value that was parsed) into path, expected and found;
 * an unknown-field issue gives one entry per unknown field. A custom issue may carry its own
 * account of what it found in `params.found`.
 */
export function zodIssueTexts(issues: readonly Issue[], root: unknown): ZodIssueText[] {
  const out: ZodIssueText[] = [];
  for (const i of issues) {
    const path = i.path.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number');
    if (i.code === 'unrecognized_keys') {
      for (const k of i.keys) out.push({ path: [...path, k], expected: 'a known field', found: `unknown field ${describeFound(k)}` });
      continue;
    }
    const value = valueAtPath(root, path);
    const own = i.code === 'custom' ? (i.params as { found?: unknown } | undefined)?.found : undefined;
    out.push({ path, expected: describeZodExpected(i, value), found: typeof own === 'string' ? own : describeFound(value) });
  }
  return out;
}
