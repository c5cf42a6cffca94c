// How a message shows what the user gave: a short excerpt, never the whole input (a 10 KB flag
// value or a 50 MB file must not come back on stderr), and numbers as the user would write them.

/** Longest part of a user's text quoted back in a message. */
export const EXCERPT_CHARS = 60;

// Printable: ASCII from space to `~`, and from U+00A0 up, except what hides or reorders text
// (line/paragraph separators, bidi controls, zero-width marks) and the replacement character
// U+FFFD, which is what undecodable bytes became, and a surrogate left alone by a cut.
function printable(c: number): boolean {
  if (c >= 0x20 && c < 0x7f) return true;
  if (c < 0xa0) return false;
  if ((c >= 0xd800 && c <= 0xdfff) || c === 0xfffd || c === 0xfeff || (c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) return false;
  return true;
}

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The first `max` characters of `s`, every one that could garble a terminal escaped, and whether `s` was cut. */
function escaped(s: string, max: number, quoted: boolean): { text: string; cut: boolean } {
  const cut = s.length > max;
  let out = '';
  for (const ch of cut ? s.slice(0, max) : s) {
    const c = ch.codePointAt(0) ?? 0;
    if (quoted && (ch === '"' || ch === '\\')) out += `\\${ch}`;
    else out += NAMED[ch] ?? (printable(c) || c > 0xffff ? ch : `\\u${c.toString(16).padStart(4, '0')}`);
  }
  return { text: out, cut };
}

/**
 * `s` as a double-quoted excerpt: at most `max` characters, non-printable ones written as
 * `\uXXXX`; when cut, `…` inside the quotes and the whole length after them.
 */
export function quoteExcerpt(s: string, max = EXCERPT_CHARS): string {
  const e = escaped(s, max, true);
  return e.cut ? `"${e.text}…" (${s.length} characters)` : `"${e.text}"`;
}

/**
 * A sentence of a message (not a quote of the input) that may hold pieces of the input: cut to
 * `max` characters, non-printable characters written as `\uXXXX`, quotes left as they are.
 */
export function messageText(s: string, max = 200): string {
  const e = escaped(s, max, false);
  return e.cut ? `${e.text}…` : e.text;
}

/**
 * A value found in an input, for a message: a string quoted as an excerpt, anything else as JSON
 * cut to `max` characters (a whole list or mapping can be megabytes).
 */
export function valueExcerpt(v: unknown, max = EXCERPT_CHARS): string {
  if (typeof v === 'string') return quoteExcerpt(v, max);
  let json: string | undefined;
  try {
    json = JSON.stringify(v);
  } catch {
    json = undefined;
  }
  if (json === undefined) return String(v);
  const e = escaped(json, max, false);
  return e.cut ? `${e.text}… (cut)` : e.text;
}

/**
 * A value read from a YAML or JSON input, in one short line: strings quoted (as an excerpt),
 * numbers as written (NaN and infinities as YAML spells them, `.nan`, `.inf`, `-.inf`, where
 * JSON.stringify would say `null`), lists and mappings by their size.
 */
export function describeFound(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (typeof value === 'string') return quoteExcerpt(value);
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return '.nan';
    if (value === Number.POSITIVE_INFINITY) return '.inf';
    if (value === Number.NEGATIVE_INFINITY) return '-.inf';
    return String(value);
  }
  if (typeof value === 'boolean' || value === null) return String(value);
  if (typeof value === 'bigint') return `${value}`;
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : `a list of ${value.length} item(s)`;
  if (typeof value === 'object') {
    const keys = Object.keys(value as object);
    return keys.length === 0 ? 'an empty mapping' : `a mapping with ${quoteExcerpt(keys.slice(0, 5).join(', '))}${keys.length > 5 ? ` and ${keys.length - 5} more key(s)` : ''}`;
  }
  return typeof value;
}
