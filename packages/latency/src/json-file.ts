import { quoteExcerpt } from '@blis/policies';
import { readFileSync } from '#host-files';

/**
 * Reads and parses a JSON file the user named (a model config, a hardware table). The parser's
 * own message can carry the raw bytes it choked on (a binary file printed garbage), so a failure
 * is told as a line and column with an escaped excerpt instead; a NUL byte is called binary data.
 * Throws `fail(found)`, the caller's located error.
 */
export function readJsonFile(path: string, fail: (found: string) => Error): unknown {
  const text = readFileSync(path, 'utf8');
  if (text.includes('\0')) throw fail('binary data');
  try {
    return JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const at = /position (\d+)/.exec(message);
    if (at === null) {
      if (text.trim() === '') throw fail('an empty file');
      // V8 names the offending character but not always where it is.
      const token = /^Unexpected token '(.+?)', /s.exec(message);
      throw fail(token !== null ? `invalid JSON: unexpected ${quoteExcerpt(token[1])}` : 'JSON cut short at the end of the file');
    }
    const pos = Number(at[1]);
    const before = text.slice(0, pos);
    const line = before.split('\n').length;
    const col = pos - before.lastIndexOf('\n');
    throw fail(`something else at line ${line}, column ${col}: ${quoteExcerpt(text.slice(pos, pos + 40))}`);
  }
}
