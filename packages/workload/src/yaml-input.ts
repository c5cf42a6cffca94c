import { type Document, isAlias, isCollection, isPair, LineCounter, parseDocument } from 'yaml';
import { readTextWithin } from './bounded-text-file.js';
import type { InputIssue } from './errors.js';
import { formatBytes, looksBinary } from './text-excerpt.js';
import { yamlSyntaxProblem } from './yaml-syntax.js';

/**
 * What a YAML input (workload spec, policy file, TraceV2 header, ...) may hold, checked before it
 * is expanded: a few kilobytes of aliases can stand for gigabytes ("billion laughs"), and deep
 * nesting overflows the stack of every recursive reader after the parser.
 */
export const YAML_LIMITS = {
  /** Largest YAML file read, in bytes (8 MiB: a thousand-client spec is well under 1 MiB). */
  maxBytes: 8 * 1024 * 1024,
  /** Most alias uses, weighted by the aliases inside what each repeats (the `yaml` package's count). */
  maxAliasCount: 100,
  /** Deepest nesting of mappings and lists. */
  maxDepth: 64,
} as const;

/** A YAML text parsed and expanded within {@link YAML_LIMITS}. */
export interface YamlInput {
  readonly doc: Document.Parsed;
  readonly lineCounter: LineCounter;
  /** The document as plain data. */
  readonly value: unknown;
}

/**
 * Reads the YAML file at `path` (a `what`, as "a readable `what`" in messages) after checking its
 * size, so an oversized file is refused without being loaded.
 */
export function readYamlText(path: string, what: string): { ok: true; text: string } | { ok: false; issues: InputIssue[] } {
  const read = readTextWithin(path, YAML_LIMITS.maxBytes);
  if ('size' in read) return { ok: false, issues: [{ file: path, expected: `a YAML file of at most ${formatBytes(YAML_LIMITS.maxBytes)}`, found: formatBytes(read.size) }] };
  if ('error' in read) return { ok: false, issues: [{ file: path, expected: `a readable ${what}`, found: read.error }] };
  if ('kind' in read) return { ok: false, issues: [{ file: path, expected: `a ${what} (a regular file)`, found: read.kind }] };
  return { ok: true, text: read.text };
}

const depthExpected = `YAML nested at most ${YAML_LIMITS.maxDepth} levels deep`;

/** Deepest nesting of collections in `doc`, counted without recursion (the input may be deep). */
function depthOf(doc: Document.Parsed): number {
  let max = 0;
  const stack: [unknown, number][] = [[doc.contents, 1]];
  while (stack.length > 0) {
    const [node, d] = stack.pop()!;
    if (!isCollection(node)) continue;
    if (d > max) max = d;
    if (max > YAML_LIMITS.maxDepth) return max;
    for (const item of node.items as unknown[]) {
      if (isPair(item)) {
        stack.push([item.key, d + 1], [item.value, d + 1]);
      } else stack.push([item, d + 1]);
    }
  }
  return max;
}

/**
 * Parses a YAML input named `file` (as messages name it) within {@link YAML_LIMITS}: binary
 * data, an oversized text, syntax errors (located, with an excerpt of the line), nesting too
 * deep and alias bombs come back as issues rather than exceptions.
 */
export function parseYamlInput(text: string, file: string): { ok: true; yaml: YamlInput } | { ok: false; issues: InputIssue[] } {
  if (text.length > YAML_LIMITS.maxBytes)
    return { ok: false, issues: [{ file, expected: `a YAML file of at most ${formatBytes(YAML_LIMITS.maxBytes)}`, found: `${formatBytes(text.length)} or more` }] };
  if (looksBinary(text)) return { ok: false, issues: [{ file, expected: 'a YAML text file', found: 'binary data' }] };
  const lc = new LineCounter();
  // The library's warnings (a key that is a collection, stringified) would go to stderr through
  // process.emitWarning, outside our messages: what the file means is checked by its schema.
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, logLevel: 'error' });
  // The parser gives up on deep nesting when its stack runs out (RESOURCE_EXHAUSTION), and
  // everything it reports after that follows from it.
  const exhausted = doc.errors.find((e) => e.code === 'RESOURCE_EXHAUSTION');
  if (exhausted !== undefined) return { ok: false, issues: [{ file, line: lc.linePos(exhausted.pos[0]).line, expected: depthExpected, found: 'deeper nesting' }] };
  if (doc.errors.length > 0) {
    // One problem, in our words, at its line and column: those after it mostly follow from it.
    const p = yamlSyntaxProblem(text, doc.errors, lc);
    return { ok: false, issues: [{ file, line: p.line, expected: p.expected, found: p.found }] };
  }
  const depth = depthOf(doc);
  if (depth > YAML_LIMITS.maxDepth) return { ok: false, issues: [{ file, expected: depthExpected, found: 'deeper nesting' }] };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: YAML_LIMITS.maxAliasCount });
  } catch (e) {
    // The `yaml` package throws a ReferenceError when aliases would expand past maxAliasCount.
    if (!(e instanceof ReferenceError)) throw e;
    const alias = firstAliasLine(doc, lc);
    return { ok: false, issues: [{ file, line: alias, expected: `at most ${YAML_LIMITS.maxAliasCount} uses of YAML aliases (*name), counting the aliases inside what each one repeats`, found: 'more (an alias bomb expands to far more data than the file holds)' }] };
  }
  return { ok: true, yaml: { doc, lineCounter: lc, value } };
}

/** Line of the document's first alias, where an alias bomb starts. */
function firstAliasLine(doc: Document.Parsed, lc: LineCounter): number | undefined {
  const stack: unknown[] = [doc.contents];
  let first: number | undefined;
  while (stack.length > 0) {
    const node = stack.pop();
    if (isAlias(node) && node.range != null) {
      if (first === undefined || node.range[0] < first) first = node.range[0];
    } else if (isCollection(node)) {
      for (const item of node.items as unknown[]) {
        if (isPair(item)) stack.push(item.key, item.value);
        else stack.push(item);
      }
    }
  }
  return first !== undefined ? lc.linePos(first).line : undefined;
}

/**
 * The line of the node at `path` in a parsed document, else of its nearest ancestor that has
 * one (a pair's key carries the line when the value is a scalar without a node); with
 * `orRoot` false, a path found nowhere has no line rather than the document's first.
 */
export function yamlLineOf(input: YamlInput, p: readonly PropertyKey[], orRoot = true): number | undefined {
  const { doc, lineCounter: lc } = input;
  for (let n = p.length; n >= (orRoot ? 0 : 1); n--) {
    const node = doc.getIn(p.slice(0, n) as (string | number)[], true) as { range?: [number, number, number] } | undefined;
    if (node?.range !== undefined) return lc.linePos(node.range[0]).line;
    if (n > 0) {
      const parent = doc.getIn(p.slice(0, n - 1) as (string | number)[], true) as { items?: { key?: { value?: unknown; range?: [number, number, number] } }[] } | undefined;
      const pair = parent?.items?.find((it) => it.key?.value === p[n - 1]);
      if (pair?.key?.range !== undefined) return lc.linePos(pair.key.range[0]).line;
    }
  }
  return undefined;
}

/**
 * The text a scalar at `path` was written as, for a number YAML could not hold exactly: an
 * integer beyond 2^53 (9007199254740993 reads as ...992) or past the largest double (1e400 reads
 * as infinity). Undefined for anything else.
 */
export function yamlNumberSource(input: YamlInput, p: readonly PropertyKey[]): string | undefined {
  const node = input.doc.getIn(p as (string | number)[], true) as { value?: unknown; source?: unknown } | undefined;
  const v = node?.value;
  if (typeof v !== 'number' || typeof node?.source !== 'string') return undefined;
  return Number.isFinite(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER ? undefined : node.source;
}
