/** One problem with a decision tree, located in the YAML text. */
export interface DecisionTreeIssue {
  /** Where in the document: `tree.else.if.signal`, `tree.then.scorers.queue-depth`, `tree.if.all[1]`. */
  readonly path: string;
  /** 1-based line in the YAML text, when the text had one for the path (or its nearest parent). */
  readonly line?: number;
  readonly expected: string;
  readonly found: string;
}

/** A decision tree that cannot be used, with every problem found (not just the first). */
export class DecisionTreeError extends Error {
  readonly issues: readonly DecisionTreeIssue[];
  readonly file: string | undefined;

  constructor(issues: readonly DecisionTreeIssue[], file?: string) {
    super(issues.map((i) => formatDecisionTreeIssue(i, file)).join('\n'));
    this.name = 'DecisionTreeError';
    this.issues = issues;
    this.file = file;
  }
}

/** `tree.yaml:7 tree.else.if.signal: expected ..., found ...` (file and line when known). */
export function formatDecisionTreeIssue(issue: DecisionTreeIssue, file?: string): string {
  const at = file !== undefined ? `${file}${issue.line !== undefined ? `:${issue.line}` : ''} ` : issue.line !== undefined ? `line ${issue.line} ` : '';
  return `${at}${issue.path}: expected ${issue.expected}, found ${issue.found}`;
}
