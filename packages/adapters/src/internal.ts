/**
 * `@blis/adapters/internal`: pieces the CLI and this repository's tests share with this package:
 * protocol constants and sub-schemas, the JSON Schema generators, objective scoring, sweep
 * output and journal paths, the Redis queue's keys and connection helpers, the capacity
 * search's bracketing and target helpers, and module loading.
 *
 * UNSTABLE: no semver promise. Names here may change or disappear in any release; a search
 * framework or sweep user needs only the package root.
 *
 * @module internal
 */

export { LocatedError } from './located-error.js';
export { importModule } from './import-module.js';
export { CONFIG_REFUSALS, isConfigRefusal } from './config-refusal.js';
export { invalidRequestResponse } from './evaluate/entry.js';
export { SANDBOX_HEAP_MB, runsCandidateCode } from './evaluate/sandbox/evaluate-sandbox.js';
export type { EarlySandboxThread } from './evaluate/sandbox/early-thread.js';
export type { SandboxCall, SandboxReply } from './evaluate/sandbox/sandbox-messages.js';
export type { CandidateLanguage, CompiledCandidate } from './evaluate/candidate-build.js';
export { serveSandbox, type SandboxServeHooks } from './evaluate/sandbox/sandbox-serve.js';
export {
  EVAL_REQUEST_MAX_BYTES,
  COMPONENT_NAMES,
  MODULE_POLICY_KINDS,
  CandidateSchema,
  ScenarioSchema,
} from './evaluate/protocol.js';
export { InvalidCandidateError } from './evaluate/candidate-error.js';
export { OBJECTIVES, OBJECTIVE_NAMES, scoreObjectives } from './evaluate/objectives.js';
export { evalRequestJsonSchema, evalResponseJsonSchema, EVAL_REQUEST_JSON_SCHEMA_FILE, EVAL_RESPONSE_JSON_SCHEMA_FILE } from './evaluate/json-schema.js';
export { formatDecisionTreeIssue } from './decision-tree/errors.js';
export { DECISION_TREE_POLICY_NAME } from './decision-tree/policy-factory.js';
export { DECISION_TREE_KINDS } from './decision-tree/signals.js';
export { DECISION_TREE_OPS } from './decision-tree/types.js';
export { SweepSpecSchema, ParameterValuesSchema, SearchSchema } from './sweep/sweep-spec-schema.js';
export { type ParameterValuesProblem, gridValues, sampleValue } from './sweep/parameter-values.js';
export { DEFAULT_SWEEP_METRICS, knownMetricNames, metricNameProblem } from './sweep/sweep-metrics.js';
export { withSeed } from './sweep/sweep-plan.js';
export { runSweepTask } from './sweep/sweep-task.js';
export { defaultWorkers } from './sweep/sweep-runner.js';
export { sweepResults, jsonPathFor, journalPathFor } from './sweep/run-sweep.js';
export { sweepCsv, sweepJson, csvField } from './sweep/sweep-output.js';
export { planCompare, compareTable } from './sweep/compare.js';
export { parseQueueUrl } from './sweep/queue/queue-url.js';
export type { QueueUrl } from './sweep/queue/queue-url.js';
export { checkRedis, retryDelayMs } from './sweep/queue/redis-connection.js';
export type { ConnectionEvent } from './sweep/queue/redis-connection.js';
export { sweepKeys, jobIdOf, QUEUE_PREFIX, ACTIVE_SWEEPS_KEY } from './sweep/queue/queue-keys.js';
export type { SweepKeys } from './sweep/queue/queue-keys.js';
export { formatQueueProgress, queueRate } from './sweep/queue/queue-progress.js';
export type { QueuedSweepCounts, QueueRate } from './sweep/queue/queue-progress.js';
export { DEFAULT_STOP_TIMEOUT_MS } from './sweep/queue/queue-worker.js';
export { shipTask, localTask } from './sweep/queue/shipped-files.js';
export type { QueuedTask, ShippedFile, ShippedField } from './sweep/queue/shipped-files.js';
export { CapacitySettingsSchema, parseCapacitySettings } from './capacity/capacity-options.js';
export {
  CapacityTargetSchema,
  CAPACITY_METRICS,
  CAPACITY_STATS,
  checkTarget,
  targetLabel,
  unavailableStat,
} from './capacity/capacity-target.js';
export { largestPassing, smallestPassingInteger } from './capacity/bracket-search.js';
export type { SearchOutcome, SearchStatus, Probe } from './capacity/bracket-search.js';
export { rateAxis } from './capacity/rate-axis.js';
export { confidenceOf, formatValue } from './capacity/capacity-report.js';
