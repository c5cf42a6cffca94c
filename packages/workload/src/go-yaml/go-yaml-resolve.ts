import { isGoYamlTimestamp } from './go-yaml-timestamp.js';

// Whether yaml.v3 must quote a Go string so that it reads back as a string (encode.go's
// stringv: `resolve("", s)` gives another tag, or the string is a YAML 1.1 base-60 float or
// boolean). resolve.go only looks further when the first byte is a sign, a digit, `.` or one of
// `yYnNtTfFoO~`, and then parses as Go does — so overflowing numbers (`1e400`, a hex past 64
// bits) stay strings, and `<<` (in its table, but starting with no hinted byte) does too.

const HINTED_FIRST = /^[-+0-9.yYnNtTfFoO~]/;
const RESOLVE_MAP = new Set([
  ...['true', 'True', 'TRUE', 'false', 'False', 'FALSE', '~', 'null', 'Null', 'NULL'],
  ...['.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF'],
]);
const OLD_BOOLS = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF']);
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const DOT_FLOAT = /^\.[0-9]+([eE][-+]?[0-9]+)?$/;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** strconv.ParseInt(s, base, 64) succeeds, or else strconv.ParseUint (which takes no sign). */
function goParsesInt(s: string, base: 0 | 2 | 8): boolean {
  const m = /^([-+]?)(.*)$/s.exec(s) ?? ['', '', s];
  const [, sign, body] = m;
  let literal: string | undefined;
  if (base === 2) literal = /^[01]+$/.test(body) ? `0b${body}` : undefined;
  else if (base === 8) literal = /^[0-7]+$/.test(body) ? `0o${body}` : undefined;
  else if (/^0[xX][0-9a-fA-F]+$|^0[oO][0-7]+$|^0[bB][01]+$|^[1-9][0-9]*$|^0$/.test(body)) literal = body;
  // Base 0 reads a leading 0 as octal, as Go's integer literals do.
  else if (/^0[0-7]+$/.test(body)) literal = `0o${body.slice(1)}`;
  if (literal === undefined) return false;
  const magnitude = BigInt(literal);
  const value = sign === '-' ? -magnitude : magnitude;
  return (value >= INT64_MIN && value <= INT64_MAX) || (sign === '' && value <= UINT64_MAX);
}

/** strconv.ParseFloat(s, 64) succeeds on decimal text: it errs on overflow, not on underflow. */
const goParsesFloat = (s: string): boolean => Number.isFinite(Number(s));

/** Whether the plain scalar `s` would resolve to a null, bool, number or timestamp. */
function resolvesToNonString(s: string): boolean {
  if (s === '') return true;
  if (!HINTED_FIRST.test(s)) return false;
  if (RESOLVE_MAP.has(s)) return true;
  if (s[0] === '.') return DOT_FLOAT.test(s) && goParsesFloat(s);
  if (!/^[-+0-9]/.test(s)) return false;
  if (isGoYamlTimestamp(s)) return true;
  const plain = s.replaceAll('_', '');
  if (goParsesInt(plain, 0)) return true;
  if (YAML_STYLE_FLOAT.test(plain) && goParsesFloat(plain)) return true;
  // resolve.go's own 0b/0o branches hand the rest to ParseInt, which takes a sign there (`0b-1`).
  if (plain.startsWith('0b')) return goParsesInt(plain.slice(2), 2);
  if (plain.startsWith('-0b')) return /^[01]+$/.test(plain.slice(3)) && goParsesInt(`-${plain.slice(3)}`, 2);
  if (plain.startsWith('0o')) return goParsesInt(plain.slice(2), 8);
  if (plain.startsWith('-0o')) return /^[0-7]+$/.test(plain.slice(3)) && goParsesInt(`-${plain.slice(3)}`, 8);
  return false;
}

/** Whether yaml.v3 may write the Go string `s` plain as far as its type goes. */
export function readsBackAsString(s: string): boolean {
  return !resolvesToNonString(s) && !BASE60_FLOAT.test(s) && !OLD_BOOLS.has(s);
}
