import { LineCounter, parseDocument } from 'yaml';
import type { EvalIssue } from './protocol.js';

/** A YAML text parsed once, able to say on which line a path of keys lives. */
export interface YamlText {
  value: unknown;
  lineOf(path: readonly (string | number)[]): number | undefined;
}

/** Parses `text`; syntax errors come back as issues located at `name:line`. */
export function parseYamlText(text: string, name: string): { ok: true; yaml: YamlText } | { ok: false; issues: EvalIssue[] } {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  if (doc.errors.length > 0)
    return {
      ok: false,
      issues: doc.errors.map((e) => ({ where: `${name}:${lc.linePos(e.pos[0]).line}`, expected: 'valid YAML', found: e.message.split('\n')[0] })),
    };
  return {
    ok: true,
    yaml: {
      value: doc.toJS(),
      lineOf(p) {
        // The node itself, else its nearest parent that exists.
        for (let i = p.length; i > 0; i--) {
          const node = doc.getIn(p.slice(0, i), true) as { range?: [number, number, number] } | undefined;
          if (node?.range !== undefined) return lc.linePos(node.range[0]).line;
        }
        return undefined;
      },
    },
  };
}
