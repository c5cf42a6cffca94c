import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { hasRawControl, mutate } from '../../../tools/test-support/input-mutations.js';
import { yamlSyntaxProblem } from '../src/yaml-syntax.js';

function problem(text: string) {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc });
  expect(doc.errors.length).toBeGreaterThan(0);
  return yamlSyntaxProblem(text, doc.errors, lc);
}

describe('yamlSyntaxProblem', () => {
  it('names a stray printable character as it is', () => {
    expect(problem('a: 1\n]\n')).toMatchObject({ line: 2, column: 1, expected: 'valid YAML (no ] here: it closes or separates nothing)' });
  });

  // Found by the policy-file fuzz test (seed -283640521): a carriage return where a blank line was.
  it('escapes a stray control character instead of writing it raw', () => {
    const text = mutate(readFileSync(new URL('../../../examples/workloads/phase2-autoscaler.yaml', import.meta.url), 'utf8'), [
      { kind: 'change-char', at: 197924432, to: '\r' },
      { kind: 'swap-lines', a: 642179019, b: 0 },
    ]);
    const p = problem(text);
    expect(p.expected).toBe('valid YAML (no "\\r" here: it closes or separates nothing)');
    expect(hasRawControl(`${p.expected} ${p.found}`)).toBe(false);
  });
});
