// What a message may quote of an input: a short excerpt, never the input itself (a 50 MB file
// once produced 50 MB of stderr), with every byte that could garble a terminal escaped.

/** Characters of an input a message quotes at most. */
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

function escaped(s: string, max: number, quoted: boolean): string {
  const cut = s.length > max;
  let out = '';
  for (const ch of cut ? s.slice(0, max) : s) {
    const c = ch.codePointAt(0) ?? 0;
    if (quoted && (ch === '"' || ch === '\\')) out += `\\${ch}`;
    else out += NAMED[ch] ?? (printable(c) || c > 0xffff ? ch : `\\u${c.toString(16).padStart(4, '0')}`);
  }
  return `${out}${cut ? '…' : ''}`;
}

/**
 * `s` as a double-quoted excerpt of at most `max` characters (then `…`), non-printable
 * characters written as `\uXXXX`.
 */
export function textExcerpt(s: string, max = EXCERPT_CHARS): string {
  return `"${escaped(s, max, true)}"`;
}

/**
 * A sentence of a message (not a quote of the input) that may hold pieces of the input: cut to
 * `max` characters, non-printable characters written as `\uXXXX`, quotes left as they are.
 */
export function messageText(s: string, max = 200): string {
  return escaped(s, max, false);
}

/**
 * A value found in an input, for a message: JSON, cut to `max` characters (a whole list or
 * mapping can be megabytes).
 */
export function valueExcerpt(v: unknown, max = EXCERPT_CHARS): string {
  if (typeof v === 'string') return textExcerpt(v, max);
  let json: string | undefined;
  try {
    json = JSON.stringify(v);
  } catch {
    json = undefined;
  }
  if (json === undefined) return String(v);
  return json.length > max ? `${textExcerpt(json, max).slice(1, -1)} (cut)` : textExcerpt(json, max).slice(1, -1);
}

/** Longest key a field path shows whole. */
const KEY_CHARS = 40;

/**
 * A key of an input as a field path shows it: as written when it is a short plain name, else as
 * a quoted excerpt (a key can be a megabyte, or hold control characters).
 */
export function keyText(key: PropertyKey): string {
  const k = String(key);
  return k.length <= KEY_CHARS && /^[\x21-\x7e]+$/.test(k) ? k : textExcerpt(k, KEY_CHARS);
}

/** `clients.0.input_distribution`, every key through {@link keyText}. */
export function fieldPathText(path: readonly PropertyKey[]): string {
  return path.map(keyText).join('.');
}

/** Characters looked at to tell text from binary data. */
const SNIFF_CHARS = 4096;

/**
 * Whether a file's text is binary data (an image, an archive, random bytes) rather than text: it
 * holds a NUL, or over 10% of its first 4,096 characters are control characters or bytes that
 * are not UTF-8. A text file with a stray control character is still text (its parser locates it).
 */
export function looksBinary(text: string): boolean {
  const head = text.length > SNIFF_CHARS ? text.slice(0, SNIFF_CHARS) : text;
  if (head.length === 0) return false;
  let odd = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if (c === 0) return true;
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f || c === 0xfffd) odd++;
  }
  return odd * 10 > head.length;
}

/** `12.3 MiB`, `512 KiB`, `80 bytes`: a size as a message states it. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Number((n / (1024 * 1024)).toFixed(1))} MiB`;
  if (n >= 1024) return `${Number((n / 1024).toFixed(1))} KiB`;
  return `${n} bytes`;
}
