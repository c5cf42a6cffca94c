import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DECISION_TREE_SIGNALS, parseDecisionTree } from '../src/index.js';
import { DECISION_TREE_KINDS } from '../src/internal.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

describe('decision-tree docs and examples', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'decision-trees.md'), 'utf8');

  it('docs/decision-trees.md lists every signal of every kind, with its description', () => {
    for (const kind of DECISION_TREE_KINDS) {
      for (const [name, signal] of Object.entries(DECISION_TREE_SIGNALS[kind])) {
        expect(doc, name).toContain(`| \`${name}\` |`);
        expect(doc, name).toContain(signal.description);
      }
    }
  });

  it('the examples hold one valid tree per kind, each described in the README', () => {
    const dir = join(ROOT, 'examples', 'decision-trees');
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    const kinds = readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => {
        expect(readme).toContain(`[${f}](${f})`);
        return parseDecisionTree(readFileSync(join(dir, f), 'utf8'), { file: f }).kind;
      });
    expect([...new Set(kinds)].sort()).toEqual([...DECISION_TREE_KINDS].sort());
  });
});
