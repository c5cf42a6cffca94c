import type { CompiledCandidate } from '../candidate-build.js';
import type { EvalIssue, EvalResponse } from '../protocol.js';

/** One request to the sandbox thread: the raw request and the options that can cross threads. */
export interface SandboxCall {
  id: number;
  request: unknown;
  memoryLimit?: { bytes: number; what: string; heap?: { bytes: number; what: string } };
  /**
   * The request's module candidate, compiled by the caller (the `blis` launcher does, while the
   * thread loads): run in place of a compile when it is the candidate's. The caller's own, never
   * read from the request.
   */
  compiled?: CompiledCandidate;
}

/** The thread's answer: a response, a malformed request (the caller's), or a fault of ours. */
export type SandboxReply =
  | { id: -1; kind: 'ready' }
  | { id: number; kind: 'response'; response: EvalResponse }
  | { id: number; kind: 'request-error'; issues: EvalIssue[] }
  | { id: number; kind: 'error'; message: string; stack?: string };
