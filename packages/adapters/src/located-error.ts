/** One located problem: where, what was expected, what was found. */
export interface LocatedIssue {
  where: string;
  expected: string;
  found: string;
}

/**
 * An error made of located issues, one line each. The subclasses say whose mistake it is (the
 * request's, the candidate's, a search option's), which decides how a caller answers it.
 */
export class LocatedError extends Error {
  readonly issues: LocatedIssue[];
  constructor(name: string, issues: LocatedIssue[], separator = '\n') {
    super(issues.map((i) => `${i.where}: expected ${i.expected}, found ${i.found}`).join(separator));
    this.name = name;
    this.issues = issues;
  }
}
