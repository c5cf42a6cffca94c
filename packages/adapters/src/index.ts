// @blis/adapters: what a search or a sweep calls. Each capability lives in its own folder and
// is exported from its section below.

// --- evaluate: the blis-eval/1 protocol (src/evaluate/) ---
export { evaluate } from './evaluate/entry.js';
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

// --- sweeps and compare (src/sweep/) ---

// --- capacity search (src/capacity/) ---
