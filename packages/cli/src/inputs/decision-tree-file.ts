import { readYamlText } from '@blis/workload/internal';
import type { DecisionTreeKind } from '@blis/adapters';
import type { PolicyFactoryContext } from '@blis/policies';
import { UsageError } from '../errors/usage-error.js';

/** Policy flags given a `.yaml`/`.yml` path load a decision tree rather than an ES module. */
export function isDecisionTreePath(path: string): boolean {
  return /\.ya?ml$/i.test(path);
}

const TREE_KINDS: readonly string[] = ['admission', 'priority', 'routing', 'autoscaler'];

/**
 * Reads and validates the decision tree at `path` for the policy `kind` the flag sets, and
 * returns its factory. Every problem of the tree becomes one located issue
 * (`tree.yaml:7 tree.else.if.signal`); a tree of another kind is refused. The tree code
 * (@blis/adapters) loads only for a run that names a tree.
 */
export async function loadDecisionTreeFactory(kind: string, path: string, where: string): Promise<(ctx: PolicyFactoryContext) => unknown> {
  if (!TREE_KINDS.includes(kind))
    throw new UsageError([{ where, expected: 'an ES module (decision trees are admission, priority, routing or autoscaler policies)', found: 'a YAML file' }]);
  // Within the YAML size limit, checked before reading.
  const read = readYamlText(path, 'decision-tree file');
  if (!read.ok) throw new UsageError(read.issues.map((i) => ({ where: i.expected.startsWith('a readable') ? where : i.file, expected: i.expected, found: i.found })));
  const { DecisionTreeError, decisionTreePolicyFactory, parseDecisionTree } = await import('@blis/adapters');
  try {
    return decisionTreePolicyFactory(parseDecisionTree(read.text, { file: path, kind: kind as DecisionTreeKind }));
  } catch (e) {
    if (!(e instanceof DecisionTreeError)) throw e;
    throw new UsageError(
      e.issues.map((i) => ({ where: `${path}${i.line !== undefined ? `:${i.line}` : ''} ${i.path}`, expected: i.expected, found: i.found })),
    );
  }
}
