// @blis/adapters: what a search or a sweep calls. Each capability lives in its own folder and
// is exported from its section below.

export { LocatedError } from './located-error.js';
export type { LocatedIssue } from './located-error.js';

// --- evaluate: the blis-eval/1 protocol (src/evaluate/) ---
export { evaluate, invalidRequestResponse } from './evaluate/entry.js';
export type { EvaluateOptions } from './evaluate/evaluate.js';
export {
  EVAL_PROTOCOL,
  COMPONENT_NAMES,
  MODULE_POLICY_KINDS,
  CandidateSchema,
  ScenarioSchema,
  EvalRequestSchema,
} from './evaluate/protocol.js';
export type {
  Candidate,
  ComponentName,
  ModulePolicyKind,
  Scenario,
  EvalRequest,
  ParsedEvalRequest,
  EvalStatus,
  EvalIssue,
  EvalFailure,
  ScenarioResult,
  EvalResponse,
} from './evaluate/protocol.js';
export { EvalRequestError, InvalidCandidateError } from './evaluate/candidate-error.js';
export { OBJECTIVES, OBJECTIVE_NAMES, scoreObjectives } from './evaluate/objectives.js';
export { EvalResponseSchema } from './evaluate/response-schema.js';
export { evalRequestJsonSchema, evalResponseJsonSchema, EVAL_REQUEST_JSON_SCHEMA_FILE, EVAL_RESPONSE_JSON_SCHEMA_FILE } from './evaluate/json-schema.js';

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
export { findCapacity } from './capacity/find-capacity.js';
export { CapacitySettingsSchema, parseCapacitySettings } from './capacity/capacity-options.js';
export type { CapacityOptions, CapacityHooks, CapacitySearch, CapacitySettings, CapacitySettingsInput } from './capacity/capacity-options.js';
export { CapacityTargetSchema, CAPACITY_METRICS, CAPACITY_STATS, parseTargets, checkTarget, targetLabel, unavailableStat } from './capacity/capacity-target.js';
export type { CapacityTarget, CapacityMetric, CapacityStat, TargetCheck } from './capacity/capacity-target.js';
export { CapacityInputError } from './capacity/capacity-input-error.js';
export type { CapacityIssue } from './capacity/capacity-input-error.js';
export { largestPassing, smallestPassingInteger } from './capacity/bracket-search.js';
export type { SearchOutcome, SearchStatus, Probe } from './capacity/bracket-search.js';
export { rateAxis } from './capacity/rate-axis.js';
export type { RateAxis, WorkloadInput } from './capacity/rate-axis.js';
export { confidenceOf, formatValue } from './capacity/capacity-report.js';
export type { CapacityReport, CapacityProbe, CapacityRun, CapacityConfidence, SeedDisagreement } from './capacity/capacity-report.js';
