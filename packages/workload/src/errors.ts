/** One problem in an input file: where (file, line, field), what was expected, what was found. */
export interface InputIssue {
  file: string;
  line?: number;
  field?: string;
  expected: string;
  found: string;
}

function render(i: InputIssue): string {
  const where = `${i.file}${i.line !== undefined ? `:${i.line}` : ''}${i.field !== undefined ? ` ${i.field}` : ''}`;
  return `${where}: expected ${i.expected}, found ${i.found}`;
}

/** A WorkloadSpec that does not validate; carries every issue found. */
export class WorkloadSpecError extends Error {
  readonly issues: InputIssue[];
  constructor(issues: InputIssue[]) {
    super(issues.map(render).join('\n'));
    this.name = 'WorkloadSpecError';
    this.issues = issues;
  }
}

/** A trace line that cannot be read (bad column count, non-numeric, non-monotone time, ...). */
export class TraceReadError extends Error {
  readonly issues: InputIssue[];
  constructor(issue: InputIssue) {
    super(render(issue));
    this.name = 'TraceReadError';
    this.issues = [issue];
  }
}
