import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonSyntaxProblem } from '../src/internal.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// Messages about bad JSON are ours (V8's change between Node versions and quote the input):
// the scanner must agree with JSON.parse on what is JSON, and say where it stops.

const parses = (t: string) => {
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
};

describe('jsonSyntaxProblem', () => {
  it('locates and words the usual mistakes', () => {
    expect(jsonSyntaxProblem('{"protocol": "blis-eval/1", "candidate": {')).toEqual({ line: 1, column: 43, expected: "a property name in double quotes, or '}'", found: 'the end of the input' });
    expect(jsonSyntaxProblem('{\n  "a": 1,\n  "b": 2\n  "c": 3\n}')).toEqual({ line: 4, column: 3, expected: "',' or '}' after a property's value", found: '"\\"c\\": 3\\n}"' });
    expect(jsonSyntaxProblem('[1, 2,]')?.expected).toBe('a JSON value (an object, a list, a string, a number, true, false or null)');
    expect(jsonSyntaxProblem('{a: 1}')?.expected).toBe("a property name in double quotes, or '}'");
    expect(jsonSyntaxProblem('{"a": 01}')?.column).toBe(8);
    expect(jsonSyntaxProblem('"tab\there"')?.expected).toMatch(/^no raw control character/);
    expect(jsonSyntaxProblem('{} x')).toMatchObject({ column: 4, expected: 'nothing after the JSON value' });
    expect(jsonSyntaxProblem('')).toMatchObject({ expected: expect.stringMatching(/^a JSON value/), found: 'the end of the input' });
    expect(jsonSyntaxProblem('{"a": [1, 2}')?.expected).toBe("',' or ']' after a list item");
  });

  it('agrees with JSON.parse on valid and mangled JSON', () => {
    const mangled = fc.tuple(fc.json(), fc.nat(), fc.integer({ min: 0, max: 3 }), fc.constantFrom('', '"', '{', '}', '[', ']', ',', ':', '\\', '-', '.', 'e', '0', 'x', ' ')).map(([t, at, cut, c]) => {
      const i = at % (t.length + 1);
      return t.slice(0, i) + c + t.slice(i + cut);
    });
    fc.assert(
      fc.property(fc.oneof(fc.json(), mangled), (t) => {
        expect(jsonSyntaxProblem(t) === undefined).toBe(parses(t));
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('reads deep nesting without overflowing the stack', () => {
    expect(jsonSyntaxProblem('['.repeat(200_000))).toMatchObject({ found: 'the end of the input' });
  });
});
