// @blis/adapters: what a search or a sweep calls. Each capability lives in its own folder and
// is exported from its section below. The root is what a search framework or a sweep user
// needs; protocol internals, output helpers and the queue's plumbing that the CLI shares are in
// `@blis/adapters/internal` (unstable). README: "What is public".

export type { LocatedIssue } from './located-error.js';

// --- evaluate: the blis-eval/1 protocol (src/evaluate/) ---
export { evaluate } from './evaluate/entry.js';
export type { EvaluateOptions } from './evaluate/evaluate.js';
export { EvaluateSandbox, type EvaluateSandboxOptions } from './evaluate/sandbox/evaluate-sandbox.js';
export { EVAL_PROTOCOL, EvalRequestSchema } from './evaluate/protocol.js';
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
export { EvalRequestError } from './evaluate/candidate-error.js';
export type { Objective } from './evaluate/objectives.js';
export type { TreeLoader, TreeKind } from './evaluate/candidate.js';
export type { PolicyFactory } from './evaluate/policy-module.js';
export { EvalResponseSchema } from './evaluate/response-schema.js';

// --- decision-tree policies (src/decision-tree/) ---
export { DecisionTreeError, type DecisionTreeIssue } from './decision-tree/errors.js';
export { isDecisionTreeDocument, type ParseDecisionTreeOptions, parseDecisionTree } from './decision-tree/parse.js';
export { type DecisionTreePolicy, decisionTreePolicyFactory } from './decision-tree/policy-factory.js';
export {
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

// --- sweeps and compare (src/sweep/) ---
export { SweepSpecError } from './sweep/sweep-spec-error.js';
export type { SweepIssue } from './sweep/sweep-spec-error.js';
export type {
  SweepSpec,
  SweepSpecInput,
  SweepSearch,
  ParameterValues,
  ParameterValue,
} from './sweep/sweep-spec-schema.js';
export { loadSweepSpec } from './sweep/sweep-spec-load.js';
export type { LoadedSweepSpec } from './sweep/sweep-spec-load.js';
export { expandCandidates } from './sweep/candidates.js';
export type { Candidate as SweepCandidate } from './sweep/candidates.js';
export { applyParameter } from './sweep/apply-parameter.js';
export { extractMetrics } from './sweep/sweep-metrics.js';
export { planSweep, buildTasks } from './sweep/sweep-plan.js';
export type { SweepPlan, PlanNaming } from './sweep/sweep-plan.js';
export type { WorkerMemory } from './sweep/worker-memory.js';
export type { SweepTask, SweepRow } from './sweep/sweep-task.js';
export { runTasks, startSweepPool } from './sweep/sweep-runner.js';
export type { RunTasksOptions, SweepPool } from './sweep/sweep-runner.js';
export { runSweep } from './sweep/run-sweep.js';
export type { RunSweepOptions, SweepOutcome } from './sweep/run-sweep.js';
export type { SweepResults, SweepResultRow } from './sweep/sweep-output.js';
export { runCompare } from './sweep/compare.js';
export type { ComparePolicy, ComparePolicyResult, CompareOptions } from './sweep/compare.js';

// --- sweeps on a Redis job queue, BullMQ (src/sweep/queue/) ---
export { QueueConnectionError } from './sweep/queue/queue-url.js';
export {
  runQueuedSweep,
  queuedSweepStatus,
  cleanQueuedSweep,
  QueuedSweepFailedError,
  QueuedSweepStoppedError,
} from './sweep/queue/queued-sweep.js';
export type { QueuedSweepOptions, QueuedSweepOutcome, QueuedSweepStatus } from './sweep/queue/queued-sweep.js';
export type { QueuedFailure } from './sweep/queue/sweep-redis-state.js';
export { runQueueWorker } from './sweep/queue/queue-worker.js';
export type { QueueWorkerOptions, QueueWorkerSummary } from './sweep/queue/queue-worker.js';

// --- capacity search (src/capacity/) ---
export { findCapacity } from './capacity/find-capacity.js';
export type {
  CapacityOptions,
  CapacityHooks,
  CapacitySearch,
  CapacitySettings,
  CapacitySettingsInput,
} from './capacity/capacity-options.js';
export { parseTargets } from './capacity/capacity-target.js';
export type { CapacityTarget, CapacityMetric, CapacityStat, TargetCheck } from './capacity/capacity-target.js';
export { CapacityInputError } from './capacity/capacity-input-error.js';
export type { CapacityIssue } from './capacity/capacity-input-error.js';
export type { RateAxis, WorkloadInput } from './capacity/rate-axis.js';
export type {
  CapacityReport,
  CapacityProbe,
  CapacityRun,
  CapacityConfidence,
  SeedDisagreement,
} from './capacity/capacity-report.js';
