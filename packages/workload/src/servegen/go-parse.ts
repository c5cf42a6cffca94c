// Go's strconv number parsing, as BLIS reads ServeGen's CSV cells, dataset keys and PDF entries:
// the same texts are accepted (Go's float syntax, with inf and nan) and give the same values.

const GO_DECIMAL_FLOAT = /^[+-]?(\d+(_\d+)*\.?(\d+(_\d+)*)?|\.\d+(_\d+)*)([eE][+-]?\d+)?$/;

/** Go's strconv.ParseFloat(s, 64): the value, or undefined where Go returns an error. */
export function goParseFloat(s: string): number | undefined {
  if (/^nan$/i.test(s)) return Number.NaN;
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  // Underscores are Go syntax only with a base prefix, which decimal floats lack.
  if (s.includes('_') || !GO_DECIMAL_FLOAT.test(s)) return hexFloat(s);
  const v = Number(s);
  // Go reports a range error (and ±Inf) for a finite text beyond float64.
  return Number.isFinite(v) ? v : undefined;
}

/** Go's hexadecimal float form (0x1.8p3), which ParseFloat also accepts. */
function hexFloat(s: string): number | undefined {
  const m = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?\d+)$/.exec(s);
  if (m === null || m[2] + m[3] === '') return undefined;
  const v = (Number.parseInt(`${m[2] || '0'}${m[3]}`, 16) / 16 ** m[3].length) * 2 ** Number(m[4]);
  return Number.isFinite(v) ? (m[1] === '-' ? -v : v) : undefined;
}

/** Go's strconv.Atoi: a decimal integer with an optional sign, in int64's range. */
export function goAtoi(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const v = Number(s);
  return Math.abs(v) <= 2 ** 63 ? Math.trunc(v) : undefined;
}

/** Go's int(f) for the float64 values ServeGen data holds: truncation toward zero. */
export function goInt(f: number): number {
  return Math.trunc(f);
}
