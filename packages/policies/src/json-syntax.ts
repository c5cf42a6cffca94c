import { quoteExcerpt } from './found-text.js';

/** Why a text is not JSON, in our words: where (1-based line and column), what was expected there, what is there (an excerpt from there on). */
export interface JsonSyntaxProblem {
  line: number;
  column: number;
  expected: string;
  found: string;
}

const VALUE = 'a JSON value (an object, a list, a string, a number, true, false or null)';
const WS = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

/**
 * Where and why `text` is not JSON, for a message. JSON.parse says so in V8's words, which vary
 * from one Node version to the next and may quote any amount of the input; this reads the text
 * itself (called only once JSON.parse has failed) and says what was expected where it stops.
 * `endName` names the end of the text ("the end of the input"). Undefined when the text is JSON.
 */
export function jsonSyntaxProblem(text: string, endName = 'the end of the input'): JsonSyntaxProblem | undefined {
  const stop = firstError(text);
  if (stop === undefined) return undefined;
  const before = text.slice(0, stop.pos);
  const line = before.split('\n').length;
  const column = stop.pos - before.lastIndexOf('\n');
  const found = stop.pos >= text.length ? endName : quoteExcerpt(text.slice(stop.pos, stop.pos + 20));
  return { line, column, expected: stop.expected, found };
}

/** The offset where `text` stops being JSON, and what JSON needs there. */
function firstError(text: string): { pos: number; expected: string } | undefined {
  // Open containers: `{` or `[`. Iterative, so a deeply nested text cannot overflow the stack.
  const stack: string[] = [];
  let i = 0;
  const skip = () => {
    while (i < text.length && WS.has(text[i])) i++;
  };
  const fail = (expected: string) => ({ pos: i, expected });
  // What may come next: a value (after `[`, `,` or `:`), or what follows one.
  let want: 'value' | 'value-or-]' | 'key' | 'key-or-}' | 'after' = 'value';
  for (;;) {
    skip();
    if (want === 'after') {
      const top = stack.at(-1);
      if (top === undefined) return i < text.length ? fail('nothing after the JSON value') : undefined;
      const c = text[i];
      if (c === ',') {
        i++;
        want = top === '{' ? 'key' : 'value';
      } else if (c === (top === '{' ? '}' : ']')) {
        i++;
        stack.pop();
      } else return fail(top === '{' ? "',' or '}' after a property's value" : "',' or ']' after a list item");
      continue;
    }
    const c = text[i];
    if (want === 'key' || want === 'key-or-}') {
      if (want === 'key-or-}' && c === '}') {
        i++;
        stack.pop();
        want = 'after';
        continue;
      }
      if (c !== '"') return fail(want === 'key' ? 'a property name in double quotes' : "a property name in double quotes, or '}'");
      const err = scanString();
      if (err !== undefined) return err;
      skip();
      if (text[i] !== ':') return fail("':' after the property name");
      i++;
      want = 'value';
      continue;
    }
    if (want === 'value-or-]' && c === ']') {
      i++;
      stack.pop();
      want = 'after';
      continue;
    }
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      want = c === '{' ? 'key-or-}' : 'value-or-]';
      continue;
    }
    const err = c === '"' ? scanString() : c === '-' || (c >= '0' && c <= '9') ? scanNumber() : scanWord();
    if (err !== undefined) return err.pos === -1 ? fail(want === 'value-or-]' ? `${VALUE}, or ']'` : VALUE) : err;
    want = 'after';
  }

  function scanString(): { pos: number; expected: string } | undefined {
    i++;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i++;
        return undefined;
      }
      if (c < ' ') return fail('no raw control character in a string (write \\n or \\t)');
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u' ? !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)) : !ESCAPES.has(e)) {
          i++;
          return fail('an escape JSON knows: \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u and four hex digits');
        }
        i += e === 'u' ? 6 : 2;
      } else i++;
    }
    return fail('a double quote closing the string');
  }

  function scanNumber(): { pos: number; expected: string } | undefined {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 1100));
    if (m === null) return fail('a number: digits, with a decimal point or exponent only before more digits');
    const next = text[i + m[0].length];
    i += m[0].length;
    if (next === '.' || next === 'e' || next === 'E' || (next !== undefined && next >= '0' && next <= '9')) return fail('digits after a decimal point or exponent, and no leading zero');
    return undefined;
  }

  /** true, false, null; anything else is no value (pos -1: the caller says what it wanted). */
  function scanWord(): { pos: number; expected: string } | undefined {
    for (const w of ['true', 'false', 'null'])
      if (text.startsWith(w, i)) {
        i += w.length;
        return undefined;
      }
    return { pos: -1, expected: '' };
  }
}
