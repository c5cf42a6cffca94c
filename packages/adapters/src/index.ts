// @blis/adapters: what a search or a sweep calls. Each capability lives in its own folder and
// is exported from its section below.

// --- evaluate: the blis-eval/1 protocol (src/evaluate/) ---

// --- decision-tree policies (src/decision-tree/) ---
export { DecisionTreeError, type DecisionTreeIssue, formatDecisionTreeIssue } from './decision-tree/errors.js';
export { isDecisionTreeDocument, type ParseDecisionTreeOptions, parseDecisionTree } from './decision-tree/parse.js';
export {
  DECISION_TREE_POLICY_NAME,
  type DecisionTreePolicy,
  decisionTreePolicyFactory,
} from './decision-tree/policy-factory.js';
export {
  DECISION_TREE_KINDS,
  DECISION_TREE_SIGNALS,
  type DecisionTreeKind,
  type DecisionTreeSignal,
  type DecisionTreeSignalCatalogue,
  type DecisionTreeSignalType,
} from './decision-tree/signals.js';
export type {
  AdmissionLeaf,
  AutoscalerLeaf,
  DecisionTree,
  DecisionTreeBranch,
  DecisionTreeComparison,
  DecisionTreeCondition,
  DecisionTreeLeaf,
  DecisionTreeNode,
  DecisionTreeOp,
  LinearPriority,
  PriorityLeaf,
  RoutingLeaf,
} from './decision-tree/types.js';
export { DECISION_TREE_OPS } from './decision-tree/types.js';

// --- sweeps and compare (src/sweep/) ---

// --- capacity search (src/capacity/) ---
export {};
