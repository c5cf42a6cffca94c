import type { InputIssue } from '@blis/workload';

/** One problem with the page's inputs, as the CLI words it: where, what was expected, what was found. */
export interface PageIssue {
  where: string;
  expected: string;
  found: string;
}

/** Thrown (and posted by the worker) when inputs are refused; carries every issue found. */
export class PageInputError extends Error {
  readonly issues: PageIssue[];
  constructor(issues: PageIssue[]) {
    super(issues.map(formatIssue).join('\n'));
    this.name = 'PageInputError';
    this.issues = issues;
  }
}

/** `where: expected X, found Y`, the CLI's line for a usage error. */
export function formatIssue(i: PageIssue): string {
  return `${i.where}: expected ${i.expected}, found ${i.found}`;
}

/** A workload file or trace issue (file, line, field) in the page's form. */
export function fromInputIssue(i: InputIssue): PageIssue {
  const where = `${i.file}${i.line !== undefined ? `:${i.line}` : ''}${i.field !== undefined ? ` ${i.field}` : ''}`;
  return { where, expected: i.expected, found: i.found };
}

/** Replaces the list's items with one per issue (empty list: no problems). */
export function showIssues(list: HTMLElement, issues: readonly PageIssue[]): void {
  list.replaceChildren(
    ...issues.map((i) => {
      const li = document.createElement('li');
      const where = document.createElement('strong');
      where.textContent = i.where;
      li.append(where, `: expected ${i.expected}, found ${i.found}`);
      return li;
    }),
  );
}
