import * as z from 'zod';
import { type PolicyKind, type PolicyParamIssue, PolicyParamsError } from './errors.js';
import { describeFound } from './found-text.js';
import { describeZodExpected } from './zod-issue-text.js';

/**
 * Validates a policy's free-form params with its zod schema. Throws {@link PolicyParamsError}
 * naming each offending field, what was expected and what was found.
 */
export function parsePolicyParams<S extends z.ZodType>(
  kind: PolicyKind,
  policyName: string,
  schema: S,
  params: unknown,
): z.output<S> {
  const result = schema.safeParse(params ?? {});
  if (result.success) return result.data;
  throw new PolicyParamsError(
    kind,
    policyName,
    zodIssuesToParamIssues(result.error.issues, params),
  );
}

/** Converts zod issues into path + message pairs, appending the value found at each path. */
export function zodIssuesToParamIssues(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
): PolicyParamIssue[] {
  const out: PolicyParamIssue[] = [];
  for (const issue of issues) {
    const path = issue.path.filter(
      (p): p is string | number => typeof p === 'string' || typeof p === 'number',
    );
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({
          path: [...path, key],
          message: 'unknown field (not a parameter of this policy)',
        });
      }
      continue;
    }
    if (issue.code === 'custom') {
      // Our own refinements already say what was wrong and with which value.
      out.push({ path, message: issue.message });
      continue;
    }
    const found = valueAt(input, path);
    const shown = found.present ? describeFound(found.value) : 'nothing';
    out.push({ path, message: `expected ${describeZodExpected(issue, found.value)}; found ${shown}` });
  }
  return out;
}

function valueAt(
  input: unknown,
  path: readonly (string | number)[],
): { present: boolean; value?: unknown } {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object' || !(key in (cur as object))) {
      return { present: false };
    }
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return { present: cur !== undefined, value: cur };
}

/** Short, single-line rendering of a user-supplied value for error messages. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
    return String(value);
  }
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  return typeof value;
}

// Shared field schemas, each with a message that says what is expected.
export const finitePositive = (what = 'a finite number > 0') =>
  z.number({ error: `expected ${what}` }).positive({ error: `expected ${what}` });

export const finiteNonNegative = (what = 'a finite number >= 0') =>
  z.number({ error: `expected ${what}` }).nonnegative({ error: `expected ${what}` });

export const unitInterval = (what = 'a number in [0, 1]') =>
  z
    .number({ error: `expected ${what}` })
    .min(0, { error: `expected ${what}` })
    .max(1, { error: `expected ${what}` });

export const finiteNumber = (what = 'a finite number') => z.number({ error: `expected ${what}` });

export const positiveInt = (what = 'an integer > 0') =>
  z.int({ error: `expected ${what}` }).positive({ error: `expected ${what}` });

export const nonNegativeInt = (what = 'an integer >= 0') =>
  z.int({ error: `expected ${what}` }).nonnegative({ error: `expected ${what}` });

/** Policies that take no parameters still reject unknown ones (typos fail loudly). */
export const noParams = z.strictObject({});
