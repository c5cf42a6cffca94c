import { type EvaluateOptions, evaluateRequest } from './evaluate.js';
import type { EvalResponse } from './protocol.js';

/**
 * Answers one `blis-eval/1` request (the library form of `blis evaluate`). Throws
 * `EvalRequestError` for a malformed request; a bad candidate is an answer with
 * `status: invalid_candidate`.
 */
export function evaluate(request: unknown, options: EvaluateOptions = {}): Promise<EvalResponse> {
  return evaluateRequest(request, options);
}
