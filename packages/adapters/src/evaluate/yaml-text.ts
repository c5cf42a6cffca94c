import { parseYamlInput } from '@blis/workload/internal';
import type { EvalIssue } from './protocol.js';

/** A YAML text parsed once, able to say on which line a path of keys lives. */
export interface YamlText {
  value: unknown;
  lineOf(path: readonly (string | number)[]): number | undefined;
}

/** Parses `text`; syntax errors come back as issues located at `name:line`. */
export function parseYamlText(text: string, name: string): { ok: true; yaml: YamlText } | { ok: false; issues: EvalIssue[] } {
  const parsed = parseYamlInput(text, name);
  if (!parsed.ok) return { ok: false, issues: parsed.issues.map((i) => ({ where: `${i.file}${i.line !== undefined ? `:${i.line}` : ''}`, expected: i.expected, found: i.found })) };
  const { doc, lineCounter: lc } = parsed.yaml;
  return {
    ok: true,
    yaml: {
      value: parsed.yaml.value,
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
