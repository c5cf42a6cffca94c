import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_EXACT_INTEGER, parseDecimal, parseDecimalInteger } from '../src/decimal-number.js';
import { describeFound, quoteExcerpt } from '../src/found-text.js';

describe('parseDecimal', () => {
  it('reads plain decimals with an optional sign, fraction and exponent', () => {
    for (const [text, n] of [['5', 5], ['-0.5', -0.5], ['.5', 0.5], ['5.', 5], ['+2', 2], ['1e3', 1000], ['2.5E-3', 0.0025]] as const) expect(parseDecimal(text)).toBe(n);
  });
  it("refuses JavaScript's other number forms", () => {
    for (const text of ['0x10', '0b1', '0o7', 'Infinity', '-Infinity', 'NaN', '', ' ', ' 5', '5 ', '1e999', '1_000', '1,5', '--1', 'e3', '1e', '.'])
      expect(parseDecimal(text), JSON.stringify(text)).toBeUndefined();
  });
  it('agrees with Number() on every finite double it prints', () => {
    // === rather than Object.is: String(-0) is "0".
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => parseDecimal(String(x)) === x));
  });
});

describe('parseDecimalInteger', () => {
  it('reads whole numbers up to 2^53 - 1, exponents included', () => {
    expect(parseDecimalInteger('16')).toBe(16);
    expect(parseDecimalInteger('1e3')).toBe(1000);
    expect(parseDecimalInteger('-4')).toBe(-4);
    expect(parseDecimalInteger(String(MAX_EXACT_INTEGER))).toBe(MAX_EXACT_INTEGER);
  });
  it('says why it refuses the rest', () => {
    expect(parseDecimalInteger('1.5')).toBe('fractional');
    expect(parseDecimalInteger('9007199254740992')).toBe('too-large');
    expect(parseDecimalInteger('-9007199254740993')).toBe('too-large');
    expect(parseDecimalInteger('1e999')).toBe('too-large');
    expect(parseDecimalInteger('0x10')).toBe('not-a-number');
  });
});

describe('found text', () => {
  it('quotes short text whole and long text as an excerpt with its length', () => {
    expect(quoteExcerpt('abc')).toBe('"abc"');
    expect(quoteExcerpt('x'.repeat(10_000))).toBe(`"${'x'.repeat(60)}…" (10000 characters)`);
  });
  it('shows NaN and infinities as YAML writes them, not as null', () => {
    expect([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, null].map(describeFound)).toEqual(['.nan', '.inf', '-.inf', 'null']);
  });
  it('describes lists and mappings by their size', () => {
    expect(describeFound([1, 2])).toBe('a list of 2 item(s)');
    expect(describeFound({ a: 1 })).toBe('a mapping with "a"');
    expect(describeFound(undefined)).toBe('nothing (the field is missing)');
  });
});
