import { type GoYamlNode, goFloatText } from './go-yaml-node.js';
import { goYamlString } from './go-yaml-scalar.js';

/**
 * A document as Go's yaml.v3 `Marshal` writes it: block style, four spaces a level, a sequence
 * indented under its key, a sequence item's mapping beginning on the dash's line two columns in
 * while its own children indent four from the dash; empty collections in flow style (`{}`, `[]`).
 */
export function goYamlDocument(root: GoYamlNode): string {
  const out: string[] = [];
  if (root.kind === 'map') emitMap(root.entries, 0, 0, false, out);
  else if (root.kind === 'seq') emitSeq(root.items, 0, out);
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

const isEmptyCollection = (n: GoYamlNode) => (n.kind === 'map' && n.entries.length === 0) || (n.kind === 'seq' && n.items.length === 0);

/**
 * A mapping whose children indent from `level`; its keys start at `keyColumn` (`level`, or two
 * past a sequence item's dash). `afterDash` means the first key continues the dash's line.
 */
function emitMap(entries: [string, GoYamlNode][], level: number, keyColumn: number, afterDash: boolean, out: string[]): void {
  entries.forEach(([key, value], i) => {
    const pad = i === 0 && afterDash ? '' : ' '.repeat(keyColumn);
    const k = goYamlString(key);
    if (value.kind === 'map' && !isEmptyCollection(value)) {
      out.push(`${pad}${k}:\n`);
      emitMap(value.entries, level + 4, level + 4, false, out);
    } else if (value.kind === 'seq' && !isEmptyCollection(value)) {
      out.push(`${pad}${k}:\n`);
      emitSeq(value.items, level + 4, out);
    } else out.push(`${pad}${k}: ${scalar(value)}\n`);
  });
}

function emitSeq(items: GoYamlNode[], level: number, out: string[]): void {
  const pad = ' '.repeat(level);
  for (const item of items) {
    if (item.kind === 'map' && !isEmptyCollection(item)) {
      out.push(`${pad}- `);
      emitMap(item.entries, level, level + 2, true, out);
    } else if (item.kind === 'seq' && !isEmptyCollection(item)) {
      out.push(`${pad}- `);
      // A sequence inside a sequence continues on the dash's line, as yaml.v3 writes it.
      const inner: string[] = [];
      emitSeq(item.items, level + 2, inner);
      out.push(inner.join('').slice(level + 2));
    } else out.push(`${pad}- ${scalar(item)}\n`);
  }
}
