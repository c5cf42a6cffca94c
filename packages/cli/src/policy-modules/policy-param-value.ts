import { parseDecimal, quoteExcerpt } from '@blis/policies/internal';
import { yamlSyntaxProblem } from '@blis/workload/internal';
import { LineCounter, type Node, isMap, isScalar, isSeq, parseDocument } from 'yaml';

// The value of `--policy-param kind.key=<value>`. Full YAML would read `0x10` as 16, `.inf` as
// infinity and `1_000` as a thousand, so a typo changes a policy's behaviour without a word.
// Instead: plain decimal numbers (as every numeric flag reads them), `true`/`false`, and any
// other text as a string; `[..]` and `{..}` are YAML flow lists and maps whose plain items
// follow the same rules; a quoted value ('0x10') is a string as written.

/** A problem with one part of a value: where inside it (`[]` for the whole), expected, found. */
export interface ParamValueIssue {
  readonly at: readonly (string | number)[];
  readonly expected: string;
  readonly found: string;
}

export const DECIMAL_WORDS = "a decimal number (16, 0.5, 1e3; quote the value, '0x10', for a string)";
const FINITE_WORDS = 'a finite decimal number (at most about 1.8e308 in magnitude)';

/** Text YAML or JavaScript would read as a number that is not a plain decimal: hex, octal, binary, infinities, NaN, 1_000. */
const OTHER_NUMBER = /^[+-]?(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|\.(?:inf|Inf|INF|nan|NaN|NAN)|Infinity|NaN|\d[\d_]*_[\d_]*(?:\.[\d_]*)?(?:[eE][+-]?\d+)?)$/;
/** A plain decimal that parseDecimal refuses only because it overflows (`1e999`). */
const DECIMAL_SHAPE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** One plain (unquoted) scalar: a number, a boolean, or the text itself; or why not. */
function plainScalar(text: string): { value: unknown } | { expected: string } {
  if (text === 'true') return { value: true };
  if (text === 'false') return { value: false };
  const n = parseDecimal(text);
  if (n !== undefined) return { value: n };
  if (DECIMAL_SHAPE.test(text)) return { expected: FINITE_WORDS };
  if (OTHER_NUMBER.test(text)) return { expected: DECIMAL_WORDS };
  return { value: text };
}

function fromNode(node: Node | null, at: readonly (string | number)[], issues: ParamValueIssue[]): unknown {
  if (node === null) return '';
  if (isScalar(node)) {
    const text = String(node.value);
    if (node.type !== 'PLAIN') return text;
    const r = plainScalar(text);
    if ('expected' in r) {
      issues.push({ at, expected: r.expected, found: quoteExcerpt(text) });
      return undefined;
    }
    return r.value;
  }
  if (isSeq(node)) return node.items.map((item, i) => fromNode(item as Node | null, [...at, i], issues));
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      out[key] = fromNode(pair.value as Node | null, [...at, key], issues);
    }
    return out;
  }
  // Aliases and tags are not part of the syntax: refuse rather than guess.
  issues.push({ at, expected: 'a number, true/false, a string, [a, b] or {k: v}', found: quoteExcerpt(String(node)) });
  return undefined;
}

/** Reads one `--policy-param` value; `issues` gets every part that breaks the rules. */
export function parsePolicyParamValue(text: string, issues: ParamValueIssue[]): unknown {
  const first = text[0];
  if (first !== '[' && first !== '{' && first !== '"' && first !== "'") {
    const r = plainScalar(text);
    if ('expected' in r) {
      issues.push({ at: [], expected: r.expected, found: quoteExcerpt(text) });
      return undefined;
    }
    return r.value;
  }
  // The failsafe schema keeps every scalar as its text; plainScalar then reads it.
  const lc = new LineCounter();
  const doc = parseDocument(text, { schema: 'failsafe', uniqueKeys: true, lineCounter: lc });
  if (doc.errors.length > 0) {
    const what = first === '[' ? 'a YAML flow list, [a, b],' : first === '{' ? 'a YAML flow map, {k: v},' : 'a quoted string';
    // The parser's own sentence is not ours to show: what is wrong, in our words, at its column.
    const p = yamlSyntaxProblem(text, doc.errors, lc, 'the end of the value');
    issues.push({ at: [], expected: p.expected.replace(/^valid YAML \((.*)\)$/, `${what} with $1`), found: p.found });
    return undefined;
  }
  return fromNode(doc.contents as Node | null, [], issues);
}
