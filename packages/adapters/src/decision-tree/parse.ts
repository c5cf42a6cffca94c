import { parseYamlInput } from '@blis/workload/internal';
import { type Document, isNode, type LineCounter } from 'yaml';
import { type At, formatAt } from './check-shape.js';
import { checkDocument } from './check-tree.js';
import { DecisionTreeError, type DecisionTreeIssue } from './errors.js';
import type { DecisionTreeKind } from './signals.js';
import type { DecisionTree } from './types.js';

/** Options of {@link parseDecisionTree}. */
export interface ParseDecisionTreeOptions {
  /** Names the text in errors and in the tree. */
  readonly file?: string;
  /** The kind the caller needs; a tree of another kind is an error. */
  readonly kind?: DecisionTreeKind;
}

/**
 * Parses and validates a decision tree written in YAML (or JSON, which is YAML). Throws a
 * {@link DecisionTreeError} holding every problem, each with its path and line.
 */
export function parseDecisionTree(text: string, options: ParseDecisionTreeOptions = {}): DecisionTree {
  // Keys are unique (the `yaml` default), so a repeated key is an error, not a silent override.
  const parsed = parseYamlInput(text, options.file ?? '(tree)');
  if (!parsed.ok) {
    const issues = parsed.issues.map((i) => ({ path: '(document)', ...(i.line !== undefined ? { line: i.line } : {}), expected: i.expected, found: i.found }));
    throw new DecisionTreeError(issues, options.file);
  }
  const { doc, lineCounter: lc } = parsed.yaml;
  const { tree, issues } = checkDocument(parsed.yaml.value, options.kind);
  if (tree === undefined || issues.length > 0) {
    const located: DecisionTreeIssue[] = issues.map((i) => {
      const line = lineOf(doc, lc, i.at);
      return { path: formatAt(i.at), ...(line !== undefined ? { line } : {}), expected: i.expected, found: i.found };
    });
    throw new DecisionTreeError(located, options.file);
  }
  return options.file !== undefined ? { ...tree, file: options.file } : tree;
}

/** The line of the node at `at`, else of its nearest ancestor present in the text. */
function lineOf(doc: Document, lc: LineCounter, at: At): number | undefined {
  for (let n = at.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(at.slice(0, n), true);
    if (isNode(node) && node.range) return lc.linePos(node.range[0]).line;
  }
  return undefined;
}

/** True for a parsed YAML or JSON document that is a map with a top-level `tree` key. */
export function isDecisionTreeDocument(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'tree' in value;
}
