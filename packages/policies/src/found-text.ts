// How a message shows what the user gave: a short excerpt, never the whole input (a 10 KB flag
// value or a 50 MB file must not come back on stderr), and numbers as the user would write them.

/** Longest part of a user's text quoted back in a message. */
export const EXCERPT_CHARS = 60;

/** `text` JSON-quoted, cut to its first {@link EXCERPT_CHARS} characters (and its length stated) when longer. */
export function quoteExcerpt(text: string): string {
  if (text.length <= EXCERPT_CHARS) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, EXCERPT_CHARS))}... (${text.length} characters)`;
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
