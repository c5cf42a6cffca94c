// @blis/adapters: what a search or a sweep calls. Each capability lives in its own folder and
// is exported from its section below.

export { LocatedError } from './located-error.js';
export { importModule } from './import-module.js';
export type { LocatedIssue } from './located-error.js';
export { CONFIG_REFUSALS, isConfigRefusal } from './config-refusal.js';

// --- evaluate: the blis-eval/1 protocol (src/evaluate/) ---
export { evaluate, invalidRequestResponse } from './evaluate/entry.js';
export type { EvaluateOptions } from './evaluate/evaluate.js';
export { EvaluateSandbox, type EvaluateSandboxOptions, SANDBOX_HEAP_MB, runsCandidateCode } from './evaluate/sandbox/evaluate-sandbox.js';
export {
  EVAL_PROTOCOL,
  EVAL_REQUEST_MAX_BYTES,
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
export type { Objective } from './evaluate/objectives.js';
export type { TreeLoader, TreeKind } from './evaluate/candidate.js';
export type { PolicyFactory } from './evaluate/policy-module.js';
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
export { SweepSpecError } from './sweep/sweep-spec-error.js';
export type { SweepIssue } from './sweep/sweep-spec-error.js';
export { SweepSpecSchema, ParameterValuesSchema, SearchSchema } from './sweep/sweep-spec-schema.js';
export type { SweepSpec, SweepSpecInput, SweepSearch, ParameterValues, ParameterValue } from './sweep/sweep-spec-schema.js';
export { loadSweepSpec } from './sweep/sweep-spec-load.js';
export type { LoadedSweepSpec } from './sweep/sweep-spec-load.js';
export { expandCandidates } from './sweep/candidates.js';
export type { Candidate as SweepCandidate } from './sweep/candidates.js';
export { type ParameterValuesProblem, gridValues, sampleValue } from './sweep/parameter-values.js';
export { applyParameter } from './sweep/apply-parameter.js';
export { DEFAULT_SWEEP_METRICS, extractMetrics, knownMetricNames, metricNameProblem } from './sweep/sweep-metrics.js';
export { planSweep, buildTasks, withSeed } from './sweep/sweep-plan.js';
export type { SweepPlan, PlanNaming } from './sweep/sweep-plan.js';
export type { WorkerMemory } from './sweep/worker-memory.js';
export { runSweepTask } from './sweep/sweep-task.js';
export type { SweepTask, SweepRow } from './sweep/sweep-task.js';
export { runTasks, defaultWorkers, startSweepPool } from './sweep/sweep-runner.js';
export type { RunTasksOptions, SweepPool } from './sweep/sweep-runner.js';
export { runSweep, sweepResults, jsonPathFor, journalPathFor } from './sweep/run-sweep.js';
export type { RunSweepOptions, SweepOutcome } from './sweep/run-sweep.js';
export { sweepCsv, sweepJson, csvField } from './sweep/sweep-output.js';
export type { SweepResults, SweepResultRow } from './sweep/sweep-output.js';
export { planCompare, runCompare, compareTable } from './sweep/compare.js';
export type { ComparePolicy, ComparePolicyResult, CompareOptions } from './sweep/compare.js';

// --- sweeps on a Redis job queue, BullMQ (src/sweep/queue/) ---
export { parseQueueUrl, QueueConnectionError } from './sweep/queue/queue-url.js';
export type { QueueUrl } from './sweep/queue/queue-url.js';
export { checkRedis, retryDelayMs } from './sweep/queue/redis-connection.js';
export type { ConnectionEvent } from './sweep/queue/redis-connection.js';
export { sweepKeys, jobIdOf, QUEUE_PREFIX, ACTIVE_SWEEPS_KEY } from './sweep/queue/queue-keys.js';
export type { SweepKeys } from './sweep/queue/queue-keys.js';
export { runQueuedSweep, queuedSweepStatus, cleanQueuedSweep, QueuedSweepFailedError, QueuedSweepStoppedError } from './sweep/queue/queued-sweep.js';
export type { QueuedSweepOptions, QueuedSweepOutcome, QueuedSweepStatus } from './sweep/queue/queued-sweep.js';
export type { QueuedFailure } from './sweep/queue/sweep-redis-state.js';
export { formatQueueProgress, queueRate } from './sweep/queue/queue-progress.js';
export type { QueuedSweepCounts, QueueRate } from './sweep/queue/queue-progress.js';
export { runQueueWorker, DEFAULT_STOP_TIMEOUT_MS } from './sweep/queue/queue-worker.js';
export type { QueueWorkerOptions, QueueWorkerSummary } from './sweep/queue/queue-worker.js';
export { shipTask, localTask } from './sweep/queue/shipped-files.js';
export type { QueuedTask, ShippedFile, ShippedField } from './sweep/queue/shipped-files.js';

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
