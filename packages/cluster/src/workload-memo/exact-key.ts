/** Values whose key text is longer (inline value lists) get none: memos stay small. */
const MAX_KEY_CHARS = 64 * 1024;

/**
 * The text a plain-data value is remembered under: JSON where strings, numbers and `undefined`
 * are each marked, so that two keys are equal only for equal data; undefined when the value holds
 * anything JSON cannot state exactly (a class instance, a function, NaN, -0) or is long.
 */
export function exactKey(value: unknown): string | undefined {
  let key: string;
  try {
    key = JSON.stringify(value, marked);
  } catch {
    return undefined;
  }
  return key.length <= MAX_KEY_CHARS ? key : undefined;
}

function marked(this: unknown, k: string, value: unknown): unknown {
  const original = (this as Record<string, unknown>)[k];
  switch (typeof original) {
    case 'undefined':
      return 'u';
    case 'string':
      return `s${original}`;
    case 'number':
      if (Object.is(original, -0) || Number.isNaN(original)) throw new Error('inexact');
      return `n${original}`;
    case 'boolean':
      return value;
    case 'object':
      if (original === null || Array.isArray(original)) return value;
      if (Object.getPrototypeOf(original) === Object.prototype || Object.getPrototypeOf(original) === null) return value;
      throw new Error('inexact');
    default:
      throw new Error('inexact');
  }
}
