/**
 * How yaml.v3 writes a Go string: plain when it reads back as the same string; in double quotes
 * when it would read back as something else (`"2"`, `"true"`, `"null"`, `""`, `"1:20"`, a
 * date); in single quotes when plain text would break the YAML (`'b: c'`, `'#x'`, a leading
 * space). Strings with line breaks or control characters are double-quoted with escapes (yaml.v3
 * would write a literal block; no spec field holds one).
 */
export function goYamlString(s: string): string {
  if (hasControl(s)) return doubleQuoted(s);
  if (resolvesToNonString(s)) return doubleQuoted(s);
  if (!plainAllowed(s)) return `'${s.replaceAll("'", "''")}'`;
  return s;
}

/** C0 and C1 controls, line and paragraph separators, the byte-order mark. */
function hasControl(s: string): boolean {
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029 || c === 0xfeff) return true;
  }
  return false;
}

function doubleQuoted(s: string): string {
  return JSON.stringify(s);
}

const NULLS = new Set(['', '~', 'null', 'Null', 'NULL']);
const BOOLS = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE']);
/** YAML 1.1 booleans yaml.v3 still quotes so that old readers do not take them for booleans. */
const OLD_BOOLS = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF']);
const SPECIAL_FLOATS = new Set(['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF', '.nan', '.NaN', '.NAN']);
const INT = /^[-+]?(0b[01_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*)$/;
const FLOAT = /^[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60 = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const TIMESTAMP = /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ]|$)/;

/** Whether YAML would read `s` back as a null, a boolean, a number or a timestamp. */
function resolvesToNonString(s: string): boolean {
  return NULLS.has(s) || BOOLS.has(s) || OLD_BOOLS.has(s) || SPECIAL_FLOATS.has(s) || INT.test(s) || FLOAT.test(s) || BASE60.test(s) || TIMESTAMP.test(s);
}

const FIRST_INDICATORS = new Set(['#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`']);

/** The emitter's check for a plain scalar in block context (libyaml's analysis). */
function plainAllowed(s: string): boolean {
  if (s.startsWith('---') || s.startsWith('...')) return false;
  if (s.startsWith(' ') || s.endsWith(' ') || s.startsWith('\t') || s.endsWith('\t')) return false;
  const chars = [...s];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    const followedBySpace = i + 1 >= chars.length || chars[i + 1] === ' ' || chars[i + 1] === '\t';
    const precededBySpace = i > 0 && (chars[i - 1] === ' ' || chars[i - 1] === '\t');
    if (i === 0) {
      if (FIRST_INDICATORS.has(c)) return false;
      if ((c === '?' || c === ':' || c === '-') && followedBySpace) return false;
    } else {
      if (c === ':' && followedBySpace) return false;
      if (c === '#' && precededBySpace) return false;
    }
  }
  return true;
}
