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
export function zodIssues(prefix: string, issues: readonly { path: readonly PropertyKey[]; message: string }[], root?: unknown): EvalIssue[] {
  return issues.map((i) => {
    const path = i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    let value: unknown = root;
    for (const p of i.path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[p] : undefined;
    const found = value === undefined ? 'nothing' : JSON.stringify(value).slice(0, 120);
    const small = /^Too small: expected (\w+) to have >=?(\d+) (\w+)$/.exec(i.message);
    if (small !== null) return { where: `${prefix}${path}`, expected: `at least ${small[2]} ${small[2] === '1' ? small[3].replace(/s$/, '') : small[3]}`, found };
    const m = /^(?:Invalid input: )?expected (.+?)(?:, received (.+))?$/s.exec(i.message);
    if (m !== null) return { where: `${prefix}${path}`, expected: m[1], found: m[2] !== undefined && value !== undefined && i.path.length > 0 && m[2].startsWith('"') ? m[2] : found };
    return { where: `${prefix}${path}`, expected: i.message, found };
  });
}
