// Numbers typed by a user (flag values, list entries such as `queue-depth:2`) are read in plain
// decimal only. JavaScript's Number() also takes hex (`0x10`), binary (`0b1`), octal (`0o7`),
// `Infinity`, padded and empty text (as 0), so `--rate 0x10` would quietly mean 16.

/** An optional sign, digits with an optional fraction, and an optional exponent: `5`, `-0.5`, `.5`, `1e3`, `2.5E-3`. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The largest integer a double holds exactly (2^53 - 1): beyond it, distinct integers collapse. */
export const MAX_EXACT_INTEGER = Number.MAX_SAFE_INTEGER;

/**
 * `text` as a finite number when it is a plain decimal (exponent allowed), else undefined: no hex,
 * binary or octal, no `Infinity` or `NaN`, no surrounding spaces, no empty text, and nothing so
 * large it overflows to infinity (`1e999`).
 */
export function parseDecimal(text: string): number | undefined {
  if (!DECIMAL.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * `text` as an integer when it is a plain decimal whose value is a whole number no larger in
 * magnitude than {@link MAX_EXACT_INTEGER} (so `1e3` is 1000, `1.5` is not an integer), else a
 * reason: `'not-a-number'`, `'fractional'` or `'too-large'`.
 */
export function parseDecimalInteger(text: string): number | 'not-a-number' | 'fractional' | 'too-large' {
  const n = parseDecimal(text);
  if (n === undefined) return DECIMAL.test(text) ? 'too-large' : 'not-a-number';
  if (Math.abs(n) > MAX_EXACT_INTEGER) return 'too-large';
  return Number.isInteger(n) ? n : 'fractional';
}
