import { formatParamPath } from '@blis/policies/internal';

/** One limit a config goes beyond: the config path (or file and field) it is at, the bound, the value. */
export interface RunLimitIssue {
  /** Config path, e.g. `['numInstances']`; `[]` for the run as a whole (the memory estimate). */
  readonly path: readonly (string | number)[];
  /** The file the value came from when it is not the config (a workload spec). */
  readonly file?: string;
  readonly expected: string;
  readonly found: string;
}

/**
 * A run refused before it starts because it would go beyond {@link RUN_LIMITS} or the memory
 * given to it: the input's size, not a fault of the simulator. One issue per limit passed, each
 * with its config path so a caller can name the flag or the file's field it came from.
 */
export class RunLimitError extends Error {
  readonly issues: readonly RunLimitIssue[];
  constructor(issues: readonly RunLimitIssue[]) {
    super(issues.map((i) => `${describeWhere(i)}: expected ${i.expected}, found ${i.found}`).join('\n'));
    this.name = 'RunLimitError';
    this.issues = issues;
  }
}

/** Where an issue is, for a library caller: the file and field, or the config path. */
export function describeWhere(i: RunLimitIssue): string {
  const field = formatParamPath(i.path, '');
  if (i.file !== undefined) return `${i.file}${field === '' ? '' : ` ${field}`}`;
  return field === '' ? 'run' : `config ${field}`;
}
