import { describe, expect, it } from 'vitest';
import { parsePolicyParamFlags } from '../src/policy-modules/policy-param-flag.js';
import type { UsageIssue } from '../src/errors/usage-error.js';

// `--policy-param` values: plain decimals, true/false, flow lists and maps, quoted strings, and
// any other text as a string; hex, octal, infinities and the like are refused, not guessed at.

function read(text: string): { value: unknown; issues: UsageIssue[] } {
  const issues: UsageIssue[] = [];
  const r = parsePolicyParamFlags([text], issues);
  return { value: r.byKind.routing?.v, issues };
}

const DECIMAL = "a decimal number (16, 0.5, 1e3; quote the value, '0x10', for a string)";

describe('--policy-param values', () => {
  it.each([
    ['16', 16],
    ['-2', -2],
    ['0.5', 0.5],
    ['.5', 0.5],
    ['1e3', 1000],
    ['010', 10],
    ['true', true],
    ['false', false],
    ['True', 'True'],
    ['yes', 'yes'],
    ['null', 'null'],
    ['', ''],
    ['fast', 'fast'],
    ['a: b', 'a: b'],
    ["'0x10'", '0x10'],
    ['"true"', 'true'],
    ['[1, 2.5, x, "0x10"]', [1, 2.5, 'x', '0x10']],
    ['{max: 3, mode: strict, on: true}', { max: 3, mode: 'strict', on: true }],
  ])('%s', (text, want) => {
    const r = read(`routing.v=${text}`);
    expect(r.issues).toEqual([]);
    expect(r.value).toEqual(want);
  });

  it.each(['0x10', '0o17', '0b1', '1_000', '.inf', '-.inf', '.nan', 'Infinity', 'NaN'])('refuses %s, naming the flag and key', (text) => {
    expect(read(`routing.v=${text}`).issues).toEqual([{ where: '--policy-param routing.v', expected: DECIMAL, found: `"${text}"` }]);
  });

  it('refuses a number that overflows, and names items inside lists and maps', () => {
    expect(read('routing.v=1e999').issues).toEqual([{ where: '--policy-param routing.v', expected: 'a finite decimal number (at most about 1.8e308 in magnitude)', found: '"1e999"' }]);
    expect(read('routing.v=[1, {b: 0x10}]').issues).toEqual([{ where: '--policy-param routing.v[1].b', expected: DECIMAL, found: '"0x10"' }]);
  });

  it('quotes a long value as an excerpt and a broken list by its parser, never the whole text', () => {
    const long = `0x${'f'.repeat(3000)}`;
    expect(read(`routing.v=${long}`).issues).toEqual([{ where: '--policy-param routing.v', expected: DECIMAL, found: `"0x${'f'.repeat(58)}…" (3002 characters)` }]);
    expect(read(`routing.v=[1, ${'2, '.repeat(2000)}`).issues).toEqual([{ where: '--policy-param routing.v', expected: 'a YAML flow list, [a, b], with a ] closing the [ at column 1', found: expect.stringMatching(/^"\[1, 2, 2, .*…" \(6004 characters\), never closed$/) }]);
  });
});
