import type { LineCounter, YAMLError } from 'yaml';
import { quoteExcerpt } from './text-excerpt.js';

/** A YAML syntax error in our words: where (1-based line and column), what was expected, what is there. */
export interface YamlSyntaxProblem {
  line: number;
  column: number;
  expected: string;
  found: string;
}

// The `yaml` package's error codes in the words of someone writing the file.
const BY_CODE: Partial<Record<string, string>> = {
  BAD_INDENT: 'valid YAML (entries indented alike, every bracket closed)',
  TAB_AS_INDENT: 'valid YAML (indentation with spaces, not tabs)',
  MISSING_CHAR: 'valid YAML (a `- ` before each list item, `: ` after each key, every quote and bracket closed)',
  BAD_DQ_ESCAPE: 'valid YAML (only known escapes in a double-quoted string: \\n, \\t, \\", \\\\, \\uXXXX)',
  DUPLICATE_KEY: 'valid YAML (each key once in a mapping)',
  MULTIPLE_DOCS: 'a single YAML document (no second `---`)',
  BAD_ALIAS: 'valid YAML (an alias *name after the anchor &name it repeats)',
  ALIAS_PROPS: 'valid YAML (no tag or anchor on an alias)',
  MULTILINE_IMPLICIT_KEY: 'valid YAML (a key on one line, followed by `: `)',
  BLOCK_AS_IMPLICIT_KEY: 'valid YAML (a key on one line, followed by `: `)',
  KEY_OVER_1024_CHARS: 'valid YAML (keys of at most 1024 characters)',
  BLOCK_IN_FLOW: 'valid YAML (no indented block inside [ ] or { })',
  MULTIPLE_ANCHORS: 'valid YAML (one anchor per node)',
  MULTIPLE_TAGS: 'valid YAML (one tag per node)',
  TAG_RESOLVE_FAILED: 'valid YAML (a value its tag can hold)',
  BAD_DIRECTIVE: 'valid YAML (no % directive other than %YAML or %TAG)',
  NON_STRING_KEY: 'valid YAML (plain keys, not lists or mappings)',
  BAD_SCALAR_START: 'valid YAML (a value that starts with @ or ` written in quotes)',
};

const SAME_COLUMN_ITEMS = 'valid YAML (each `- ` item of a list at the column of the items beside it)';
/** A `key: value` line indented under a key that already has a value on its line. */
const CONTINUATION = 'valid YAML (a key at the column of the key above it: indented further, a line continues the value above)';

// Codes the parser uses for several mistakes, told apart by the one its message names. The
// messages are read here and never shown: they are the parser's wording, not ours.
const BY_MESSAGE: readonly [RegExp, string][] = [
  [/^Sequence item without - indicator/, 'valid YAML (the keys of a list item at one column, or a `- ` before a new item)'],
  [/^Implicit map keys need to be followed by map values/, 'valid YAML (`: ` after each key)'],
  [/^All mapping items must start at the same column/, 'valid YAML (each key of a mapping at the column of the keys beside it)'],
  [/^All sequence items must start at the same column/, SAME_COLUMN_ITEMS],
  [/^A block sequence may not be used as an implicit map key/, SAME_COLUMN_ITEMS],
  [/^Nested mappings are not allowed in compact mappings/, CONTINUATION],
];

/** Errors about where a line starts: their column is the line's first character, not the parser's position. */
const INDENTATION = new Set([SAME_COLUMN_ITEMS, CONTINUATION, BY_MESSAGE[0][1], BY_MESSAGE[2][1], BY_CODE.TAB_AS_INDENT]);

/**
 * The one problem to report of a YAML text the parser refused: the first error, since those
 * after it mostly follow from it (one misplaced line can make three). An unclosed bracket is
 * reported at the bracket, wherever the parser noticed it; a line indented under a key that has
 * a value is reported at that line, not at the value. `endName` names the end of the text
 * ("the end of the file").
 */
export function yamlSyntaxProblem(text: string, errors: readonly YAMLError[], lc: LineCounter, endName = 'the end of the file'): YamlSyntaxProblem {
  const sorted = [...errors].sort((a, b) => a.pos[0] - b.pos[0]);
  for (const e of sorted) {
    const close = /end with a ([\]}])/.exec(e.message)?.[1];
    const open = close === undefined ? undefined : unclosedOpener(text, e.pos[0], close === ']' ? '[' : '{', close);
    if (close !== undefined && open !== undefined) {
      const at = lc.linePos(open);
      return { line: at.line, column: at.col, expected: `valid YAML (a ${close} closing the ${text[open]} at column ${at.col})`, found: `${lineExcerpt(text, open)}, never closed` };
    }
  }
  const quote = sorted.map((e) => /^Missing closing (["'])quote/.exec(e.message)?.[1]).find((q) => q !== undefined);
  const opener = quote === undefined ? undefined : unclosedQuote(text, quote);
  if (quote !== undefined && opener !== undefined) {
    const at = lc.linePos(opener);
    return { line: at.line, column: at.col, expected: `valid YAML (a ${quote} closing the quoted value at column ${at.col})`, found: `${lineExcerpt(text, opener)}, never closed` };
  }
  const first = sorted[0];
  let pos = first.pos[0];
  let expected = BY_MESSAGE.find(([re]) => re.test(first.message))?.[1] ?? BY_CODE[first.code] ?? 'valid YAML';
  if (expected === CONTINUATION) {
    // The parser points at the value; the line that continues it is where the key went wrong.
    const spill = sorted.find((e) => e.code === 'MULTILINE_IMPLICIT_KEY' && lc.linePos(e.pos[1]).line > lc.linePos(e.pos[0]).line);
    if (spill !== undefined) pos = lineStart(text, spill.pos[1]);
    else expected = BY_CODE.BLOCK_AS_IMPLICIT_KEY ?? 'valid YAML';
  }
  if (first.code === 'UNEXPECTED_TOKEN' && pos < text.length) {
    // A printable character as it is (`]`); anything else escaped, never raw on the terminal.
    const ch = text[pos];
    expected = `valid YAML (no ${/^[\x21-\x7e]$/.test(ch) ? ch : quoteExcerpt(ch)} here: it closes or separates nothing)`;
  }
  const start = lineStart(text, pos);
  if (INDENTATION.has(expected)) pos = start + (/^[ \t]*/.exec(text.slice(start, start + 1000))?.[0].length ?? 0);
  const at = lc.linePos(pos);
  const atEnd = text.slice(pos).trim() === '';
  return { line: at.line, column: at.col, expected, found: atEnd ? endName : `${lineExcerpt(text, pos)} at column ${at.col}` };
}

function lineStart(text: string, pos: number): number {
  return text.lastIndexOf('\n', Math.max(0, pos - 1)) + 1;
}

/** The line of `text` holding offset `pos`, quoted as an excerpt. */
function lineExcerpt(text: string, pos: number): string {
  const start = lineStart(text, pos);
  let end = text.indexOf('\n', Math.min(pos, text.length));
  if (end < 0) end = text.length;
  return quoteExcerpt(text.slice(start, end).replace(/\r$/, ''));
}

/** Whether a quote at `i` opens a quoted value: at the start of one, not inside a word (don't). */
function opensQuote(text: string, i: number): boolean {
  return i === 0 || /[\s[{,:]/.test(text[i - 1]);
}

/** Offset of the `q` quote that opens a value and is never closed (YAML quotes may span lines). */
function unclosedQuote(text: string, q: string): number | undefined {
  let open: number | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (open !== undefined) {
      if (q === '"' && c === '\\') i++;
      else if (c === q && q === "'" && text[i + 1] === "'") i++;
      else if (c === q) open = undefined;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
    } else if ((c === '"' || c === "'") && opensQuote(text, i)) {
      if (c === q) open = i;
      else {
        // The other kind of quote: skip its value.
        const end = text.indexOf(c, i + 1);
        i = end < 0 ? text.length : end;
      }
    }
  }
  return open;
}

/**
 * Offset of the last `open` before `before` that no `close` matches, brackets inside quotes and
 * comments aside: where the user left the list or mapping open.
 */
function unclosedOpener(text: string, before: number, open: string, close: string): number | undefined {
  const opened: number[] = [];
  let quote: string | undefined;
  for (let i = 0; i < before && i < text.length; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote || c === '\n') quote = undefined;
    } else if ((c === '"' || c === "'") && opensQuote(text, i)) quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
    } else if (c === open) opened.push(i);
    else if (c === close) opened.pop();
  }
  return opened.at(-1);
}
