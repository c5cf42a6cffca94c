import type { DecisionTreeKind } from './signals.js';

/** Comparison operators of a condition. `in` tests membership of a list. */
export type DecisionTreeOp = '<' | '<=' | '>' | '>=' | '==' | '!=' | 'in';

/** The operators, in the order error messages list them. */
export const DECISION_TREE_OPS: readonly DecisionTreeOp[] = ['<', '<=', '>', '>=', '==', '!=', 'in'];

/** A test of one signal against a constant (a list of constants for `in`). */
export interface DecisionTreeComparison {
  readonly signal: string;
  readonly op: DecisionTreeOp;
  readonly value: number | string | boolean | readonly (number | string)[];
}

/** A condition: a comparison, or `all` / `any` / `not` over conditions. */
export type DecisionTreeCondition =
  | DecisionTreeComparison
  | { readonly all: readonly DecisionTreeCondition[] }
  | { readonly any: readonly DecisionTreeCondition[] }
  | { readonly not: DecisionTreeCondition };

/** An admission leaf: admit, or reject with a short machine-readable reason. */
export type AdmissionLeaf = { readonly admit: true } | { readonly reject: string };

/** `scale * signal + offset`, a priority that follows a request signal. */
export interface LinearPriority {
  readonly signal: string;
  readonly scale: number;
  readonly offset: number;
}

/** A priority leaf: a constant, or a linear form over a request signal. Higher is more urgent. */
export interface PriorityLeaf {
  readonly priority: number | LinearPriority;
}

/**
 * A routing leaf. `least` / `most`: the instance with the smallest / largest `by` among those
 * passing `where` (all of them when none does), ties to the lowest position. `weighted`: the
 * built-in weighted routing over the named scorers.
 */
export type RoutingLeaf =
  | { readonly route: 'least' | 'most'; readonly by: string; readonly where?: DecisionTreeCondition }
  | { readonly route: 'weighted'; readonly scorers: Readonly<Record<string, number>> };

/** An autoscaler leaf: change replicas by `scale`, or move them to `target`. */
export type AutoscalerLeaf = { readonly scale: number } | { readonly target: number };

/** Any leaf; a valid tree holds only the leaves of its kind. */
export type DecisionTreeLeaf = AdmissionLeaf | PriorityLeaf | RoutingLeaf | AutoscalerLeaf;

/** A branch: `then` when the condition holds, else `else`. */
export interface DecisionTreeBranch {
  readonly if: DecisionTreeCondition;
  readonly then: DecisionTreeNode;
  readonly else: DecisionTreeNode;
}

export type DecisionTreeNode = DecisionTreeBranch | DecisionTreeLeaf;

/** A validated decision tree, ready for {@link decisionTreePolicyFactory}. */
export interface DecisionTree {
  readonly kind: DecisionTreeKind;
  readonly tree: DecisionTreeNode;
  /** Free text, for the people and programs that mutate the tree. */
  readonly description?: string;
  /** The file it was read from, when the caller said. */
  readonly file?: string;
}
