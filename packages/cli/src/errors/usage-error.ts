/** One problem with the command line or an input file, as the user should read it. */
export interface UsageIssue {
  /** Where: `--rate`, `policy.yaml:12 routing.scorers[0].name`, `trace.csv:7 input_tokens`. */
  where: string;
  expected: string;
  found: string;
}

/** Bad input: the CLI prints one line per issue on stderr and exits with code 2. */
export class UsageError extends Error {
  readonly issues: UsageIssue[];
  constructor(issues: UsageIssue[]) {
    super(issues.map(formatIssue).join('\n'));
    this.name = 'UsageError';
    this.issues = issues;
  }
}

export function formatIssue(i: UsageIssue): string {
  return `${i.where}: expected ${i.expected}, found ${i.found}`;
}
