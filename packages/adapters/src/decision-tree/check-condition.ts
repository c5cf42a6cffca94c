import * as z from 'zod';
import { type At, an, checkKeys, checkWith, describeFound, isPlainObject, type RawIssue } from './check-shape.js';
import { DECISION_TREE_SIGNALS, type DecisionTreeKind, type DecisionTreeSignal } from './signals.js';
import { DECISION_TREE_OPS, type DecisionTreeComparison, type DecisionTreeCondition, type DecisionTreeOp } from './types.js';

/**
 * Where a condition sits: a branch's `if` (request, tenant and global signals) or a routing
 * leaf's `where` (those and the instance's).
 */
export type ConditionScope = 'if' | 'where';

const CONDITION_HINT = 'a condition {signal, op, value}, {all: [...]}, {any: [...]} or {not: ...}';
const FORMS = ['signal', 'all', 'any', 'not'] as const;

const comparisonSchema = z.object({
  signal: z.string({ error: 'expected a signal name' }),
  op: z.enum(DECISION_TREE_OPS as [DecisionTreeOp, ...DecisionTreeOp[]], { error: `expected an operator: ${DECISION_TREE_OPS.join(' ')}` }),
  value: z.unknown().optional(),
});

const OPS_BY_TYPE: Record<DecisionTreeSignal['type'], readonly DecisionTreeOp[]> = {
  number: DECISION_TREE_OPS,
  string: ['==', '!=', 'in'],
  boolean: ['==', '!='],
};

/** Signal names of `kind` that `accept` lets through, for "expected one of ..." messages. */
export function signalNames(kind: DecisionTreeKind, accept: (s: DecisionTreeSignal) => boolean): string[] {
  return Object.entries(DECISION_TREE_SIGNALS[kind])
    .filter(([, s]) => accept(s))
    .map(([name]) => name);
}

/** The catalogue entry for `name`, or an issue listing the signals valid at this place. */
export function lookupSignal(
  kind: DecisionTreeKind,
  name: string,
  at: At,
  issues: RawIssue[],
  accept: (s: DecisionTreeSignal) => boolean,
  what: string,
): DecisionTreeSignal | undefined {
  const signal = DECISION_TREE_SIGNALS[kind][name];
  if (signal !== undefined && accept(signal)) return signal;
  const why = signal === undefined ? '' : signal.instance ? ' (instance signals belong in a routing leaf\'s by and where)' : '';
  issues.push({ at, expected: `${what}${why}: ${signalNames(kind, accept).join(', ')}`, found: JSON.stringify(name) });
  return undefined;
}

/** Validates a condition; returns it typed when it is valid. */
export function checkCondition(kind: DecisionTreeKind, v: unknown, at: At, scope: ConditionScope, issues: RawIssue[]): DecisionTreeCondition | undefined {
  if (!isPlainObject(v)) {
    issues.push({ at, expected: CONDITION_HINT, found: describeFound(v) });
    return undefined;
  }
  const forms = FORMS.filter((f) => f in v);
  if (forms.length !== 1) {
    const has = Object.keys(v);
    issues.push({ at, expected: `${CONDITION_HINT} (exactly one of signal, all, any, not)`, found: has.length === 0 ? 'an empty map' : `the keys ${has.join(', ')}` });
    return undefined;
  }
  const form = forms[0];
  if (form === 'not') {
    checkKeys(v, ['not'], at, issues);
    const inner = checkCondition(kind, v.not, [...at, 'not'], scope, issues);
    return inner === undefined ? undefined : { not: inner };
  }
  if (form === 'all' || form === 'any') {
    checkKeys(v, [form], at, issues);
    const list = v[form];
    if (!Array.isArray(list) || list.length === 0) {
      issues.push({ at: [...at, form], expected: 'a non-empty list of conditions', found: describeFound(list) });
      return undefined;
    }
    const parts = list.map((c, i) => checkCondition(kind, c, [...at, form, i], scope, issues));
    if (parts.some((p) => p === undefined)) return undefined;
    return form === 'all' ? { all: parts as DecisionTreeCondition[] } : { any: parts as DecisionTreeCondition[] };
  }
  return checkComparison(kind, v, at, scope, issues);
}

function checkComparison(kind: DecisionTreeKind, v: Record<string, unknown>, at: At, scope: ConditionScope, issues: RawIssue[]): DecisionTreeComparison | undefined {
  const before = issues.length;
  checkKeys(v, ['signal', 'op', 'value'], at, issues);
  const c = checkWith(comparisonSchema, v, at, issues);
  if (c === undefined) return undefined;
  const accept = scope === 'if' ? (s: DecisionTreeSignal) => !s.instance : () => true;
  const what = scope === 'if' ? `${an(kind)} signal` : 'a routing or instance signal';
  const signal = lookupSignal(kind, c.signal, [...at, 'signal'], issues, accept, what);
  if (signal === undefined) return undefined;
  const ops = OPS_BY_TYPE[signal.type];
  if (!ops.includes(c.op)) {
    issues.push({ at: [...at, 'op'], expected: `an operator for the ${signal.type} signal ${c.signal}: ${ops.join(' ')}`, found: JSON.stringify(c.op) });
    return undefined;
  }
  checkValue(c.signal, signal, c.op, c.value, [...at, 'value'], issues);
  return issues.length === before ? { signal: c.signal, op: c.op, value: c.value as DecisionTreeComparison['value'] } : undefined;
}

function checkValue(name: string, signal: DecisionTreeSignal, op: DecisionTreeOp, value: unknown, at: At, issues: RawIssue[]): void {
  const one = (x: unknown, where: At): void => {
    if (signal.type === 'number' && !(typeof x === 'number' && Number.isFinite(x)))
      issues.push({ at: where, expected: `a finite number (${name} is a number)`, found: describeFound(x) });
    else if (signal.type === 'boolean' && typeof x !== 'boolean') issues.push({ at: where, expected: `true or false (${name} is a boolean)`, found: describeFound(x) });
    else if (signal.type === 'string') {
      if (typeof x !== 'string') issues.push({ at: where, expected: `a string (${name} is a string; quote numbers)`, found: describeFound(x) });
      else if (signal.values !== undefined && !signal.values.includes(x))
        issues.push({ at: where, expected: `one of ${signal.values.map((s) => JSON.stringify(s)).join(', ')} (the values of ${name})`, found: describeFound(x) });
    }
  };
  if (op !== 'in') {
    one(value, at);
    return;
  }
  if (!Array.isArray(value) || value.length === 0) {
    issues.push({ at, expected: `a non-empty list of ${signal.type} values (op "in")`, found: describeFound(value) });
    return;
  }
  for (let i = 0; i < value.length; i++) one(value[i], [...at, i]);
}
