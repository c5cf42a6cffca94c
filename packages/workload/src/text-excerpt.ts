// What a message may quote of an input: a short excerpt, never the input itself (a 50 MB file
// once produced 50 MB of stderr). The excerpts themselves are @blis/policies' (one wording for
// flags and files); what is here is about inputs: keys, field paths, binary data, sizes.
import { quoteExcerpt } from '@blis/policies/internal';

export { EXCERPT_CHARS, messageText, quoteExcerpt, valueExcerpt } from '@blis/policies/internal';

/** Longest key a field path shows whole. */
const KEY_CHARS = 40;

/**
 * A key of an input as a field path shows it: as written when it is a short plain name, else as
 * a quoted excerpt (a key can be a megabyte, or hold control characters).
 */
export function keyText(key: PropertyKey): string {
  const k = String(key);
  return k.length <= KEY_CHARS && /^[\x21-\x7e]+$/.test(k) ? k : quoteExcerpt(k, KEY_CHARS);
}

/** `clients[0].input_distribution`: list positions in brackets, every key through {@link keyText}. */
export function fieldPathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const k of path) out += typeof k === 'number' ? `[${k}]` : out === '' ? keyText(k) : `.${keyText(k)}`;
  return out;
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
