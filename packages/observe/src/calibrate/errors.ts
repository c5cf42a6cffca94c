/** One problem in calibrate's inputs: where (file, line, field), what was expected, what was found. */
export interface CalibrationIssue {
  /** The file (or `--flag`) the problem is in. */
  file: string;
  line?: number;
  field?: string;
  expected: string;
  found: string;
}

function render(i: CalibrationIssue): string {
  const where = `${i.file}${i.line !== undefined ? `:${i.line}` : ''}${i.field !== undefined ? ` ${i.field}` : ''}`;
  return `${where}: expected ${i.expected}, found ${i.found}`;
}

/**
 * Inputs calibrate cannot grade: an unreadable or malformed file, or a trace and results that
 * share no usable request. The CLI reports each issue and exits with code 2.
 */
export class CalibrationInputError extends Error {
  readonly issues: CalibrationIssue[];
  constructor(issues: CalibrationIssue[]) {
    super(issues.map(render).join('\n'));
    this.name = 'CalibrationInputError';
    this.issues = issues;
  }
}
