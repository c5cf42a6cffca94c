import { UsageError } from '../errors/usage-error.js';
import { usageIssueOf } from '../inputs/yaml-file.js';

/** Input-file errors of @blis/observe and @blis/workload, as the CLI reports them. */
function located(e: unknown): e is Error & { issues: { file: string; line?: number; field?: string; expected: string; found: string }[] } {
  const name = (e as Error | null)?.name;
  return (name === 'CalibrationInputError' || name === 'TraceReadError') && Array.isArray((e as { issues?: unknown }).issues);
}

/** Located input errors of calibrate's readers as usage errors (`file:line field: expected, found`); anything else as is. */
export function asUsageError(e: unknown): unknown {
  if (!located(e)) return e;
  return new UsageError(e.issues.map(usageIssueOf));
}
