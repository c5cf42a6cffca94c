import { DecisionTreeError } from '../decision-tree/errors.js';
import { isDecisionTreeDocument, parseDecisionTree } from '../decision-tree/parse.js';
import { decisionTreePolicyFactory } from '../decision-tree/policy-factory.js';
import { InvalidCandidateError } from './candidate-error.js';
import type { TreeLoader } from './candidate.js';
import type { PolicyFactory } from './policy-module.js';

/**
 * Reads a component text that is a decision tree (a document with a top-level `tree`). The
 * component's name gives the kind, so a tree written without `kind:` gets it (a search that
 * mutates the tree need not keep the header); its lines are still reported as written.
 */
export const loadTreeComponent: TreeLoader = (value, text, origin, kind) => {
  if (!isDecisionTreeDocument(value)) return undefined;
  const hasKind = (value as Record<string, unknown>).kind !== undefined;
  const source = hasKind ? text : `kind: ${kind}\n${text}`;
  try {
    return decisionTreePolicyFactory(parseDecisionTree(source, { file: origin, kind })) as unknown as PolicyFactory;
  } catch (e) {
    if (!(e instanceof DecisionTreeError)) throw e;
    throw new InvalidCandidateError(
      e.issues.map((i) => {
        const line = i.line === undefined ? undefined : hasKind ? i.line : Math.max(1, i.line - 1);
        return { where: `${origin}${line !== undefined ? `:${line}` : ''} ${i.path}`, expected: i.expected, found: i.found };
      }),
    );
  }
};
