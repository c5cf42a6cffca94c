import { listPolicies } from '@blis/policies';
import * as z from 'zod';
import { checkCondition, lookupSignal } from './check-condition.js';
import { type At, an, checkKeys, checkWith, describeFound, isPlainObject, type RawIssue } from './check-shape.js';
import { DECISION_TREE_KINDS, type DecisionTreeKind } from './signals.js';
import type { DecisionTree, DecisionTreeLeaf, DecisionTreeNode, LinearPriority } from './types.js';
import { lazySchema } from '@blis/policies/internal';

/** What each kind's leaves look like, for "expected ..." messages. */
export const LEAF_HINT: Record<DecisionTreeKind, string> = {
  admission: 'an admission leaf {admit: true} or {reject: "<reason>"}',
  priority: 'a priority leaf {priority: <number>} or {priority: {signal, scale, offset}}',
  routing: 'a routing leaf {route: least|most, by: instance.<signal>, where?: <condition>} or {route: weighted, scorers: {<scorer>: <weight>}}',
  autoscaler: 'an autoscaler leaf {scale: <integer delta>} or {target: <replicas>}',
};

/** The key that marks a leaf, and the kind whose leaf it is. */
const LEAF_KEYS: Record<string, DecisionTreeKind> = { admit: 'admission', reject: 'admission', priority: 'priority', route: 'routing', scale: 'autoscaler', target: 'autoscaler' };

const finite = (what = 'a finite number') => z.number({ error: `expected ${what}` });

const kindSchema = lazySchema(() =>
  z.enum(DECISION_TREE_KINDS as [DecisionTreeKind, ...DecisionTreeKind[]], { error: `expected one of ${DECISION_TREE_KINDS.join(', ')}` }),
);
const descriptionSchema = lazySchema(() =>
  z.string({ error: 'expected a string' }).optional(),
);

/**
 * Validates a parsed document as a decision tree (of `expectKind` when given). Every problem is
 * collected; the tree comes back only when there is none.
 */
export function checkDocument(value: unknown, expectKind?: DecisionTreeKind): { tree?: DecisionTree; issues: RawIssue[] } {
  const issues: RawIssue[] = [];
  if (!isPlainObject(value)) {
    issues.push({ at: [], expected: 'a map with kind and tree', found: describeFound(value) });
    return { issues };
  }
  checkKeys(value, ['kind', 'tree', 'description'], [], issues);
  const kind = checkWith(kindSchema, value.kind, ['kind'], issues);
  const description = checkWith(descriptionSchema, value.description, ['description'], issues);
  // Without a kind the tree's signals and leaves cannot be judged.
  if (kind === undefined) return { issues };
  if (expectKind !== undefined && kind !== expectKind) {
    issues.push({ at: ['kind'], expected: `${expectKind} (${an(expectKind)} tree is wanted here)`, found: JSON.stringify(kind) });
    return { issues };
  }
  const tree = checkNode(kind, value.tree, ['tree'], issues);
  if (tree === undefined || issues.length > 0) return { issues };
  return { tree: { kind, tree, ...(description !== undefined ? { description } : {}) }, issues };
}

function checkNode(kind: DecisionTreeKind, v: unknown, at: At, issues: RawIssue[]): DecisionTreeNode | undefined {
  const hint = `a branch {if, then, else} or ${LEAF_HINT[kind]}`;
  if (!isPlainObject(v)) {
    issues.push({ at, expected: hint, found: describeFound(v) });
    return undefined;
  }
  if ('if' in v || 'then' in v || 'else' in v) {
    checkKeys(v, ['if', 'then', 'else'], at, issues);
    const cond = checkCondition(kind, v.if, [...at, 'if'], 'if', issues);
    const then = checkNode(kind, v.then, [...at, 'then'], issues);
    const otherwise = checkNode(kind, v.else, [...at, 'else'], issues);
    return cond && then && otherwise ? { if: cond, then, else: otherwise } : undefined;
  }
  const leafKeys = Object.keys(v).filter((k) => k in LEAF_KEYS);
  if (leafKeys.length === 0) {
    issues.push({ at, expected: hint, found: describeFound(v) });
    return undefined;
  }
  const other = LEAF_KEYS[leafKeys[0]];
  if (other !== kind) {
    issues.push({ at, expected: `${LEAF_HINT[kind]} (this is ${an(kind)} tree)`, found: `${an(other)} leaf (${leafKeys[0]})` });
    return undefined;
  }
  if (leafKeys.length > 1) {
    issues.push({ at, expected: `${LEAF_HINT[kind]}, one action per leaf`, found: `the keys ${leafKeys.join(', ')}` });
    return undefined;
  }
  return LEAF_CHECKS[kind](v, at, issues);
}

type LeafCheck = (v: Record<string, unknown>, at: At, issues: RawIssue[]) => DecisionTreeLeaf | undefined;

const admitSchema = lazySchema(() =>
  z.object({ admit: z.literal(true, { error: 'expected true (to refuse, write {reject: "<reason>"})' }) }),
);
const rejectSchema = lazySchema(() =>
  z.object({ reject: z.string({ error: 'expected a reason string' }).min(1, { error: 'expected a non-empty reason string' }) }),
);
const linearSchema = lazySchema(() =>
  z.object({
    signal: z.string({ error: 'expected a signal name' }),
    scale: finite().default(1),
    offset: finite().default(0),
  }),
);
const autoscalerSchema = lazySchema(() =>
  z.object({
    scale: z.number({ error: 'expected an integer replica delta' }).int({ error: 'expected an integer replica delta' }).optional(),
    target: z.number({ error: 'expected a whole number of replicas' }).int({ error: 'expected a whole number of replicas' }).min(0, { error: 'expected a whole number of replicas (>= 0)' }).optional(),
  }),
);
const routeSchema = lazySchema(() =>
  z.object({
    route: z.enum(['least', 'most', 'weighted'], { error: 'expected one of least, most, weighted' }),
  }),
);
const byWhereSchema = lazySchema(() =>
  z.object({ by: z.string({ error: 'expected an instance signal name' }) }),
);

const LEAF_CHECKS: Record<DecisionTreeKind, LeafCheck> = {
  admission(v, at, issues) {
    if ('admit' in v) {
      checkKeys(v, ['admit'], at, issues);
      return checkWith(admitSchema, v, at, issues) && { admit: true };
    }
    checkKeys(v, ['reject'], at, issues);
    const r = checkWith(rejectSchema, v, at, issues);
    return r && { reject: r.reject };
  },
  priority(v, at, issues) {
    checkKeys(v, ['priority'], at, issues);
    const p = v.priority;
    if (typeof p === 'number' && Number.isFinite(p)) return { priority: p };
    if (!isPlainObject(p)) {
      issues.push({ at: [...at, 'priority'], expected: 'a finite number or {signal, scale, offset}', found: describeFound(p) });
      return undefined;
    }
    const where = [...at, 'priority'];
    checkKeys(p, ['signal', 'scale', 'offset'], where, issues);
    const lin = checkWith(linearSchema, p, where, issues);
    if (lin === undefined) return undefined;
    const s = lookupSignal('priority', lin.signal, [...where, 'signal'], issues, (x) => x.type === 'number', 'a number priority signal');
    return s && { priority: lin satisfies LinearPriority };
  },
  routing(v, at, issues) {
    const r = checkWith(routeSchema, v, at, issues);
    if (r === undefined) return undefined;
    if (r.route === 'weighted') {
      checkKeys(v, ['route', 'scorers'], at, issues);
      return checkScorers(v.scorers, [...at, 'scorers'], issues);
    }
    checkKeys(v, ['route', 'by', 'where'], at, issues);
    const b = checkWith(byWhereSchema, v, at, issues);
    const by = b && lookupSignal('routing', b.by, [...at, 'by'], issues, (s) => s.instance === true, 'an instance signal');
    const where = 'where' in v ? checkCondition('routing', v.where, [...at, 'where'], 'where', issues) : undefined;
    if (b === undefined || by === undefined || ('where' in v && where === undefined)) return undefined;
    return where !== undefined ? { route: r.route, by: b.by, where } : { route: r.route, by: b.by };
  },
  autoscaler(v, at, issues) {
    checkKeys(v, ['scale', 'target'], at, issues);
    const a = checkWith(autoscalerSchema, v, at, issues);
    if (a === undefined) return undefined;
    return a.scale !== undefined ? { scale: a.scale } : { target: a.target as number };
  },
};

function checkScorers(v: unknown, at: At, issues: RawIssue[]): DecisionTreeLeaf | undefined {
  const known = listPolicies().scorer;
  if (!isPlainObject(v) || Object.keys(v).length === 0) {
    issues.push({ at, expected: `a non-empty map of scorer weights, e.g. {prefix-affinity: 3, queue-depth: 2}; scorers: ${known.join(', ')}`, found: describeFound(v) });
    return undefined;
  }
  const before = issues.length;
  for (const [name, weight] of Object.entries(v)) {
    if (!known.includes(name)) issues.push({ at: [...at, name], expected: `a built-in scorer: ${known.join(', ')}`, found: `the scorer "${name}"` });
    else if (typeof weight !== 'number' || !Number.isFinite(weight) || weight <= 0)
      issues.push({ at: [...at, name], expected: 'a finite weight > 0', found: describeFound(weight) });
  }
  return issues.length === before ? { route: 'weighted', scorers: { ...(v as Record<string, number>) } } : undefined;
}
