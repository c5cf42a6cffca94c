import type { EvalIssue } from './protocol.js';

/** The candidate cannot run: answered with `status: invalid_candidate`, never a crash. */
export class InvalidCandidateError extends Error {
  readonly issues: EvalIssue[];
  constructor(issues: EvalIssue[]) {
    super(issues.map((i) => `${i.where}: expected ${i.expected}, found ${i.found}`).join('; '));
    this.name = 'InvalidCandidateError';
    this.issues = issues;
  }
}

/** The request itself is malformed (not the candidate): a systemic failure, exit code 2. */
export class EvalRequestError extends Error {
  readonly issues: EvalIssue[];
  constructor(issues: EvalIssue[]) {
    super(issues.map((i) => `${i.where}: expected ${i.expected}, found ${i.found}`).join('; '));
    this.name = 'EvalRequestError';
    this.issues = issues;
  }
}

/** Turns zod-style issues into located ones under `prefix`. */
export function zodIssues(prefix: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]): EvalIssue[] {
  return issues.map((i) => {
    const path = i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    const m = /^(?:Invalid input: )?expected (.+?), received (.+)$/s.exec(i.message);
    return { where: `${prefix}${path}`, expected: m !== null ? m[1] : i.message, found: m !== null ? m[2] : 'an invalid value' };
  });
}
