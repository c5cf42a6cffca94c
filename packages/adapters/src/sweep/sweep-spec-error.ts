/** One problem with a sweep: where (`sweep.yaml:7 parameters.numInstances`, `candidate 3`), what was expected, what was found. */
export interface SweepIssue {
  where: string;
  expected: string;
  found: string;
}

/**
 * A sweep spec, a candidate built from it, or a results journal that cannot be used. Raised
 * before any simulation runs; the CLI prints one line per issue and exits with code 2.
 */
export class SweepSpecError extends Error {
  readonly issues: SweepIssue[];
  constructor(issues: SweepIssue[]) {
    super(issues.map((i) => `${i.where}: expected ${i.expected}, found ${i.found}`).join('\n'));
    this.name = 'SweepSpecError';
    this.issues = issues;
  }
}
