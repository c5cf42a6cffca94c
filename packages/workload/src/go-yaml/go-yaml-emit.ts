import { goFloatText } from './go-float-text.js';
import type { GoYamlNode } from './go-yaml-node.js';
import { goYamlString } from './go-yaml-string.js';

// yaml.v3's block layout (emitterc.go's yaml_emitter_increase_indent with best_indent 4): a
// collection nested in a sequence item starts two columns in, right after the `- ` on the dash's
// line (so a sequence in a sequence prints `- - a`); anything else nested rounds up to the next
// multiple of 4 (`4*((indent+4)/4)`), so a mapping under a `- ` key at column 6 indents to 8.
// Empty collections print in flow style (`{}`, `[]`).

type Out = string[];

const isBlock = (n: GoYamlNode): boolean => (n.kind === 'map' && n.entries.length > 0) || (n.kind === 'seq' && n.items.length > 0);
const nested = (indent: number): number => 4 * Math.floor((indent + 4) / 4);

/** The document yaml.v3's Marshal prints for `root`. */
export function goYamlDocument(root: GoYamlNode): string {
  const out: Out = [];
  if (isBlock(root)) writeBlock(root, 0, false, out);
  else out.push(`${scalar(root)}\n`);
  return out.join('');
}

function scalar(n: GoYamlNode): string {
  switch (n.kind) {
    case 'str':
      return goYamlString(n.value);
    case 'float':
      return goFloatText(n.value);
    case 'int':
      return String(n.value);
    case 'bool':
      return String(n.value);
    case 'map':
      return '{}';
    case 'seq':
      return '[]';
  }
}

/** A non-empty collection at `indent`; `afterDash`: its first line continues a `- ` already written. */
function writeBlock(node: GoYamlNode, indent: number, afterDash: boolean, out: Out): void {
  const pad = ' '.repeat(indent);
  if (node.kind === 'map') {
    node.entries.forEach(([key, value], i) => {
      out.push(`${i === 0 && afterDash ? '' : pad}${goYamlString(key)}:`);
      if (isBlock(value)) {
        out.push('\n');
        writeBlock(value, nested(indent), false, out);
      } else out.push(` ${scalar(value)}\n`);
    });
  } else if (node.kind === 'seq') {
    node.items.forEach((item, i) => {
      out.push(`${i === 0 && afterDash ? '' : pad}- `);
      if (isBlock(item)) writeBlock(item, indent + 2, true, out);
      else out.push(`${scalar(item)}\n`);
    });
  }
}
