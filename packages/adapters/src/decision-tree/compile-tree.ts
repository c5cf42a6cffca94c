import { formatAt } from './check-shape.js';
import { compileCondition } from './compile-condition.js';
import type { Env } from './signal-getters.js';
import { DECISION_TREE_SIGNALS } from './signals.js';
import type { DecisionTreeCondition, DecisionTreeLeaf, DecisionTreeNode } from './types.js';

/**
 * Compiles the branches of a tree into one closure that returns the action of the leaf the Env
 * leads to. Each leaf is compiled once by `leaf`, given its path (`tree.else.then`) so the
 * decision's reason can name it without building a string per decision.
 */
export function compileNode<A>(node: DecisionTreeNode, leaf: (l: DecisionTreeLeaf, path: string) => A, at: readonly string[] = ['tree']): (e: Env) => A {
  if ('if' in node) {
    const cond = compileCondition(node.if);
    const then = compileNode(node.then, leaf, [...at, 'then']);
    const otherwise = compileNode(node.else, leaf, [...at, 'else']);
    return (e) => (cond(e) ? then(e) : otherwise(e));
  }
  const action = leaf(node, formatAt(at));
  return () => action;
}

/** True when the tree reads a signal whose value changes with time alone (a priority's age). */
export function readsTime(node: DecisionTreeNode, kind: keyof typeof DECISION_TREE_SIGNALS): boolean {
  const timed = (signal: string) => DECISION_TREE_SIGNALS[kind][signal]?.timeDependent === true;
  const inCondition = (c: DecisionTreeCondition): boolean =>
    'all' in c ? c.all.some(inCondition) : 'any' in c ? c.any.some(inCondition) : 'not' in c ? inCondition(c.not) : timed(c.signal);
  if ('if' in node) return inCondition(node.if) || readsTime(node.then, kind) || readsTime(node.else, kind);
  if ('priority' in node && typeof node.priority === 'object') return timed(node.priority.signal);
  return false;
}
