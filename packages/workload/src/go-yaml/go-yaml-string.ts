import { readsBackAsString } from './go-yaml-resolve.js';

/**
 * How yaml.v3 writes a Go string: plain when it reads back as the same string; in double quotes
 * when it would read back as something else (`"2"`, `"true"`, `"null"`, `""`, `"1:20"`, a date)
 * or holds a character libyaml will not print raw (a tab, a control, an astral-plane character
 * such as an emoji); in single quotes when plain text would break the YAML (`'b: c'`, `'#x'`, a
 * leading space). yaml.v3 writes a string with a line break as a literal block (`|-`); no BLIS
 * spec field holds one, so this double-quotes it (escaped) instead.
 */
export function goYamlString(s: string): string {
  if (!allPrintable(s)) return doubleQuoted(s);
  if (!readsBackAsString(s)) return doubleQuoted(s);
  if (!plainAllowed(s)) return `'${s.replaceAll("'", "''")}'`;
  return s;
}

/** libyaml's is_printable: LF, ASCII text, U+00A0–U+D7FF, U+E000–U+FFFD but the BOM — not beyond U+FFFF. */
function printable(c: number): boolean {
  return c === 0x0a || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);
}

/** libyaml's is_break beyond LF: CR, NEL and the line and paragraph separators. */
const isBreak = (c: number): boolean => c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;

function allPrintable(s: string): boolean {
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (!printable(c) || isBreak(c)) return false;
  }
  return true;
}

/** libyaml's one-letter escapes, by code point. */
const ESCAPES: ReadonlyMap<number, string> = new Map([
  [0x00, '0'], [0x07, 'a'], [0x08, 'b'], [0x09, 't'], [0x0a, 'n'], [0x0b, 'v'], [0x0c, 'f'], [0x0d, 'r'], [0x1b, 'e'],
  [0x22, '"'], [0x5c, '\\'], [0x85, 'N'], [0xa0, '_'], [0x2028, 'L'], [0x2029, 'P'],
]);

/** libyaml's double-quoted scalar: its own escapes (`\e`, `\x7F`, `\U0001F600`), not JSON's. */
function doubleQuoted(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (printable(c) && !isBreak(c) && c !== 0x22 && c !== 0x5c) {
      out += ch;
      continue;
    }
    const hex = (width: number) => c.toString(16).toUpperCase().padStart(width, '0');
    out += `\\${ESCAPES.get(c) ?? (c <= 0xff ? `x${hex(2)}` : c <= 0xffff ? `u${hex(4)}` : `U${hex(8)}`)}`;
  }
  return `${out}"`;
}

const FIRST_INDICATORS = new Set(['#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`']);

/** libyaml's analysis for a plain scalar in block context (its tabs were sent to double quotes). */
function plainAllowed(s: string): boolean {
  if (s.startsWith('---') || s.startsWith('...')) return false;
  if (s.startsWith(' ') || s.endsWith(' ')) return false;
  const chars = [...s];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    const followedBySpace = i + 1 >= chars.length || chars[i + 1] === ' ';
    if (i === 0) {
      if (FIRST_INDICATORS.has(c)) return false;
      if ((c === '?' || c === ':' || c === '-') && followedBySpace) return false;
    } else {
      if (c === ':' && followedBySpace) return false;
      if (c === '#' && chars[i - 1] === ' ') return false;
    }
  }
  return true;
}
