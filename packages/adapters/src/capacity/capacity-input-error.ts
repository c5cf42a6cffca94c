/** One problem with a capacity search's options: where, what was expected, what was found. */
export interface CapacityIssue {
  where: string;
  expected: string;
  found: string;
}

/** Bad capacity-search input (targets, seeds, bounds, a workload it cannot scale). */
export class CapacityInputError extends Error {
  readonly issues: CapacityIssue[];
  constructor(issues: CapacityIssue[]) {
    super(issues.map((i) => `${i.where}: expected ${i.expected}, found ${i.found}`).join('\n'));
    this.name = 'CapacityInputError';
    this.issues = issues;
  }
}
