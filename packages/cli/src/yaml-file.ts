import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument } from 'yaml';
import { UsageError } from './usage-error.js';

/** A parsed YAML file that can say on which line a path of keys lives. */
export interface YamlFile {
  path: string;
  value: unknown;
  lineOf(path: readonly (string | number)[]): number | undefined;
}

/** Reads and parses a YAML file; syntax errors become UsageErrors naming file and line. */
export function readYamlFile(path: string, what: string): YamlFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError([{ where: path, expected: `a readable ${what} file`, found: (e as NodeJS.ErrnoException).code ?? String(e) }]);
  }
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new UsageError(
      doc.errors.map((err) => ({
        where: `${path}:${lc.linePos(err.pos[0]).line}`,
        expected: 'valid YAML',
        found: err.message.split('\n')[0],
      })),
    );
  }
  return {
    path,
    value: doc.toJS(),
    lineOf(p) {
      const node = doc.getIn(p, true) as { range?: [number, number, number] } | undefined;
      if (node?.range !== undefined) return lc.linePos(node.range[0]).line;
      // Fall back to the nearest existing parent.
      for (let i = p.length - 1; i > 0; i--) {
        const parent = doc.getIn(p.slice(0, i), true) as { range?: [number, number, number] } | undefined;
        if (parent?.range !== undefined) return lc.linePos(parent.range[0]).line;
      }
      return undefined;
    },
  };
}
