import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { zodIssueTexts } from '../src/zod-issue-text.js';

function texts(schema: z.ZodType, value: unknown) {
  const r = schema.safeParse(value);
  if (r.success) throw new Error('expected a refusal');
  return zodIssueTexts(r.error.issues, value);
}

describe('zodIssueTexts', () => {
  it('words every issue kind in plain words, never zod placeholders', () => {
    const schema = z.strictObject({
      a: z.union([z.number(), z.literal('auto')]),
      b: z.discriminatedUnion('kind', [z.object({ kind: z.literal('x') }), z.object({ kind: z.literal('y') })]),
      c: z.number(),
      d: z.enum(['p', 'q']),
      e: z.number().int(),
      f: z.string().refine(() => false),
      g: z.array(z.number()).min(2),
      i: z.number().gt(0),
    });
    const got = texts(schema, { a: 'no', b: { kind: 'z' }, c: Number.NaN, d: 'r', e: 1e300, f: 'x', g: [1], i: 0, h: 1 });
    expect(got).toEqual([
      { path: ['a'], expected: 'a number or "auto"', found: '"no"' },
      { path: ['b', 'kind'], expected: 'one of "x", "y"', found: '"z"' },
      { path: ['c'], expected: 'a finite number', found: '.nan' },
      { path: ['d'], expected: 'one of "p", "q"', found: '"r"' },
      { path: ['e'], expected: 'an integer <= 9007199254740991', found: '1e+300' },
      { path: ['f'], expected: 'a valid value', found: '"x"' },
      { path: ['g'], expected: 'a list with >= 2 item(s)', found: 'a list of 1 item(s)' },
      { path: ['i'], expected: 'a number > 0', found: '0' },
      { path: ['h'], expected: 'a known field', found: 'unknown field "h"' },
    ]);
    for (const t of got) expect(`${t.expected} ${t.found}`).not.toMatch(/Invalid|null|received/);
  });
  it("keeps a schema's own wording and a custom issue's own found", () => {
    const schema = z.object({
      t: z.number({ error: 'expected seconds as a number' }).min(0, { error: 'expected seconds >= 0' }),
      u: z.string().check((ctx) => {
        ctx.issues.push({ code: 'custom', input: ctx.value, message: 'a known thing', params: { found: 'the unknown thing "x"' } });
      }),
    });
    expect(texts(schema, { t: -1, u: 'x' })).toEqual([
      { path: ['t'], expected: 'seconds >= 0', found: '-1' },
      { path: ['u'], expected: 'a known thing', found: 'the unknown thing "x"' },
    ]);
  });
  it('says a missing field is missing, and shows infinities as YAML writes them', () => {
    expect(texts(z.object({ a: z.number() }), {})).toEqual([{ path: ['a'], expected: 'a number', found: 'nothing (the field is missing)' }]);
    expect(texts(z.object({ a: z.number() }), { a: Number.NEGATIVE_INFINITY })).toEqual([{ path: ['a'], expected: 'a finite number', found: '-.inf' }]);
  });
});
