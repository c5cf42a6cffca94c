// @blis/adapters: what a search or a sweep calls. Each capability lives in its own folder and
// is exported from its section below.

// --- evaluate: the blis-eval/1 protocol (src/evaluate/) ---

// --- decision-tree policies (src/decision-tree/) ---

// --- sweeps and compare (src/sweep/) ---
export { SweepSpecError } from './sweep/sweep-spec-error.js';
export type { SweepIssue } from './sweep/sweep-spec-error.js';
export { SweepSpecSchema, ParameterValuesSchema, SearchSchema } from './sweep/sweep-spec-schema.js';
export type { SweepSpec, SweepSpecInput, SweepSearch, ParameterValues, ParameterValue } from './sweep/sweep-spec-schema.js';
export { loadSweepSpec } from './sweep/sweep-spec-load.js';
export type { LoadedSweepSpec } from './sweep/sweep-spec-load.js';
export { expandCandidates } from './sweep/candidates.js';
export type { Candidate } from './sweep/candidates.js';
export { gridValues, sampleValue } from './sweep/parameter-values.js';
export { applyParameter } from './sweep/apply-parameter.js';
export { DEFAULT_SWEEP_METRICS, extractMetrics, knownMetricNames, metricNameProblem } from './sweep/sweep-metrics.js';
export { planSweep, buildTasks, withSeed } from './sweep/sweep-plan.js';
export type { SweepPlan, PlanNaming } from './sweep/sweep-plan.js';
export { runSweepTask } from './sweep/sweep-task.js';
export type { SweepTask, SweepRow } from './sweep/sweep-task.js';
export { runTasks, defaultWorkers } from './sweep/sweep-runner.js';
export type { RunTasksOptions } from './sweep/sweep-runner.js';
export { runSweep, jsonPathFor, journalPathFor } from './sweep/run-sweep.js';
export type { RunSweepOptions, SweepOutcome } from './sweep/run-sweep.js';
export { sweepCsv, sweepJson, csvField } from './sweep/sweep-output.js';
export type { SweepResults, SweepResultRow } from './sweep/sweep-output.js';
export { planCompare, runCompare, compareTable } from './sweep/compare.js';
export type { ComparePolicy, ComparePolicyResult, CompareOptions } from './sweep/compare.js';

// --- capacity search (src/capacity/) ---
export {};
