import { formatParamPath } from './errors.js';

/** One problem in a bundle: where (`routing.scorers[0].weight`), and what was wrong. */
export interface PolicyBundleIssue {
  readonly path: readonly (string | number)[];
  readonly pathText: string;
  readonly message: string;
}

/** An issue at `path`, its text form included. */
export function bundleIssue(path: readonly (string | number)[], message: string): PolicyBundleIssue {
  return { path, pathText: bundlePathText(path), message };
}

/** A bundle path as messages write it: `routing.scorers[0].weight`, or `(root)`. */
export function bundlePathText(path: readonly (string | number)[]): string {
  return path.length === 0 ? '(root)' : formatParamPath(path, '');
}
