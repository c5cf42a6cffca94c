import { type EvaluateOptions, type HostEvaluateOptions, evaluateRequest } from './evaluate.js';
import { loadTreeComponent } from './tree-component.js';
import { EVAL_PROTOCOL, type EvalIssue, type EvalResponse } from './protocol.js';

/**
 * Answers one `blis-eval/1` request (the library form of `blis evaluate`); components that are
 * decision trees are read as such. Throws
 * `EvalRequestError` for a malformed request; a bad candidate is an answer with
 * `status: invalid_candidate`.
 */
export function evaluate(request: unknown, options: EvaluateOptions = {}): Promise<EvalResponse> {
  // A script to run in place of the compile is a host's own (evaluateAsHost), not a caller's.
  return evaluateRequest(request, { loadTree: loadTreeComponent, ...options, compiled: undefined });
}

/** {@link evaluate}, with what only the package's own hosts pass (the sandbox's thread). */
export function evaluateAsHost(request: unknown, options: HostEvaluateOptions): Promise<EvalResponse> {
  return evaluateRequest(request, { loadTree: loadTreeComponent, ...options });
}

/**
 * The answer to a request that could not be read (persistent mode answers every line): status
 * `invalid_request`, no score, the problems in `error.issues`.
 */
export function invalidRequestResponse(issues: EvalIssue[]): EvalResponse {
  return {
    protocol: EVAL_PROTOCOL,
    status: 'invalid_request',
    error: { kind: 'invalid_request', message: issues.map((i) => `${i.where}: expected ${i.expected}, found ${i.found}`).join('; '), issues },
    combined_score: 0,
    metrics: {},
    features: {},
    per_scenario: [],
    artifacts: {},
  };
}
