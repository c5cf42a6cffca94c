import { jsonSyntaxProblem, quoteExcerpt } from '@blis/policies/internal';
import { readFileSync } from '#host-files';

/**
 * Reads and parses a JSON file the user named (a model config, a hardware table). The parser's
 * own message can carry the raw bytes it choked on (a binary file printed garbage) and differs
 * between Node versions, so a failure is told as a line and column (`jsonSyntaxProblem`, as
 * every JSON reader of the project does) with an escaped excerpt; a NUL byte is called binary
 * data. Throws `fail(found)`, the caller's located error.
 */
export function readJsonFile(path: string, fail: (found: string) => Error): unknown {
  const text = readFileSync(path, 'utf8');
  if (text.includes('\0')) throw fail('binary data');
  try {
    return JSON.parse(text);
  } catch (e) {
    if (text.trim() === '') throw fail('an empty file');
    const p = jsonSyntaxProblem(text);
    if (p === undefined) throw fail(`invalid JSON: ${quoteExcerpt((e as Error).message)}`);
    const lines = text.split('\n');
    const pos = lines.slice(0, p.line - 1).reduce((n, l) => n + l.length + 1, 0) + p.column - 1;
    if (pos >= text.length) throw fail('JSON cut short at the end of the file');
    throw fail(`something else at line ${p.line}, column ${p.column}: ${quoteExcerpt(text.slice(pos, pos + 40))}`);
  }
}
