import { zodIssueTexts } from '@blis/policies/internal';
import type * as z from 'zod';
import { LocatedError } from '../located-error.js';
import type { EvalIssue } from './protocol.js';

/** The candidate cannot run: answered with `status: invalid_candidate`, never a crash. */
export class InvalidCandidateError extends LocatedError {
  constructor(issues: EvalIssue[]) {
    super('InvalidCandidateError', issues, '; ');
  }
}

/** The request itself is malformed (not the candidate): a systemic failure, exit code 2. */
export class EvalRequestError extends LocatedError {
  constructor(issues: EvalIssue[]) {
    super('EvalRequestError', issues, '; ');
  }
}

/** Turns zod issues into located ones under `prefix`; `root` is the value they are about. */
export function zodIssues(prefix: string, issues: readonly z.core.$ZodIssue[], root?: unknown): EvalIssue[] {
  return zodIssueTexts(issues, root).map((t) => ({ where: `${prefix}${t.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('')}`, expected: t.expected, found: t.found }));
}
