import fc from 'fast-check';

// Near-valid inputs for fuzzing the file readers: a valid text with one to three small edits, the
// kind a hand edit, a bad export or a hostile user makes. Shared by the YAML, CSV and JSONL
// readers' fuzz tests (packages/workload/test/fuzz, packages/cli/test/bad-input).

/** One edit of a text; positions are taken modulo the text's length or line count. */
export type Mutation =
  | { kind: 'drop-line' | 'duplicate-line'; at: number }
  | { kind: 'swap-lines'; a: number; b: number }
  | { kind: 'change-char'; at: number; to: string }
  | { kind: 'replace-number'; nth: number; to: string }
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'nest'; at: number; depth: number }
  | { kind: 'alias-bomb'; width: number };

/** Numbers a field should not take: past 2^53, negative, not numbers, other notations. */
export const ODD_NUMBERS = [
  '99999999999999999999', '9007199254740993', '1e15', '1e308', '-1e308', '-1', '-0', '0', '1.5', 'NaN', '.nan', '.inf', '-.inf', 'Infinity',
  '', '0x10', '0o17', '1_000', 'null', '~', 'true', '[]', '{}', '"7"', '1e-400',
] as const;

/** Characters a stray edit leaves: syntax, quotes, control characters, undecodable bytes. */
const ODD_CHARS = [':', '-', ',', '"', "'", '[', ']', '{', '}', '&', '*', '!', '|', '>', '#', '\t', '\n', '\r', ' ', '\0', '\u0007', '\u001b', '\ufffd', '\u202e', 'é', '𝄞', '9'];

/** Snippets inserted whole: the start of YAML structures, binary bytes, long runs. */
const SNIPPETS = ['\n  ', '\n- ', ': ', '&a ', '*a', '!!binary ', '---\n', '%YAML 1.2\n', '{"a": [1, 2', '\u0000\u0001\u0002\u00ff\ufffd\ufffd', '\u0089PNG\r\n\u001a\n\u0000\u0000', 'x'.repeat(300), ',,,,', '""', '\\u12'];

/** One mutation; `yaml` adds the YAML-only ones (deep nesting, aliases). */
export function mutationArb(yaml: boolean): fc.Arbitrary<Mutation> {
  const at = fc.nat();
  const common: fc.Arbitrary<Mutation>[] = [
    fc.record({ kind: fc.constantFrom('drop-line' as const, 'duplicate-line' as const), at }),
    fc.record({ kind: fc.constant('swap-lines' as const), a: at, b: at }),
    fc.record({ kind: fc.constant('change-char' as const), at, to: fc.constantFrom(...ODD_CHARS) }),
    fc.record({ kind: fc.constant('replace-number' as const), nth: at, to: fc.constantFrom(...ODD_NUMBERS) }),
    fc.record({ kind: fc.constant('truncate' as const), at }),
    fc.record({ kind: fc.constant('insert' as const), at, text: fc.constantFrom(...SNIPPETS) }),
  ];
  if (!yaml) return fc.oneof(...common);
  return fc.oneof(
    ...common,
    fc.record({ kind: fc.constant('nest' as const), at, depth: fc.constantFrom(3, 63, 65, 500) }),
    fc.record({ kind: fc.constant('alias-bomb' as const), width: fc.integer({ min: 2, max: 12 }) }),
  );
}

/** One to three mutations, applied in order. */
export function mutationsArb(yaml: boolean): fc.Arbitrary<Mutation[]> {
  return fc.array(mutationArb(yaml), { minLength: 1, maxLength: 3 });
}

export function applyMutation(text: string, m: Mutation): string {
  const lines = text.split('\n');
  const n = Math.max(1, lines.length);
  const pos = (i: number) => (text.length === 0 ? 0 : i % (text.length + 1));
  switch (m.kind) {
    case 'drop-line':
      lines.splice(m.at % n, 1);
      return lines.join('\n');
    case 'duplicate-line':
      lines.splice(m.at % n, 0, lines[m.at % n] ?? '');
      return lines.join('\n');
    case 'swap-lines': {
      const [a, b] = [m.a % n, m.b % n];
      [lines[a], lines[b]] = [lines[b] ?? '', lines[a] ?? ''];
      return lines.join('\n');
    }
    case 'change-char': {
      const p = pos(m.at);
      return text.slice(0, p) + m.to + text.slice(p + 1);
    }
    case 'replace-number': {
      const numbers = [...text.matchAll(/-?\d+(\.\d+)?/g)];
      if (numbers.length === 0) return text;
      const hit = numbers[m.nth % numbers.length];
      return text.slice(0, hit.index) + m.to + text.slice(hit.index + hit[0].length);
    }
    case 'truncate':
      return text.slice(0, pos(m.at));
    case 'insert': {
      const p = pos(m.at);
      return text.slice(0, p) + m.text + text.slice(p);
    }
    case 'nest': {
      // A value wrapped in flow lists: `key: [[[value]]]`.
      const values = [...text.matchAll(/: (\S[^\n]*)/g)];
      if (values.length === 0) return text;
      const hit = values[m.at % values.length];
      const start = hit.index + 2;
      return `${text.slice(0, start)}${'['.repeat(m.depth)}${hit[1]}${']'.repeat(m.depth)}${text.slice(start + hit[1].length)}`;
    }
    case 'alias-bomb': {
      // Anchors of `width` aliases each, nine deep, in a key the schema will also refuse.
      const keys = 'abcdefghi'.split('');
      const defs = keys.map((k, i) => (i === 0 ? `${k}: &${k} [x]` : `${k}: &${k} [${Array(m.width).fill(`*${keys[i - 1]}`).join(', ')}]`));
      return `${text.replace(/\n?$/, '\n')}bomb:\n${defs.map((d) => `  ${d}`).join('\n')}\n`;
    }
  }
}

/** `text` with every mutation applied. */
export function mutate(text: string, ms: readonly Mutation[]): string {
  return ms.reduce(applyMutation, text);
}

/** Whether `s` holds a character that should never reach a terminal raw (controls, U+FFFD). */
export function hasRawControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a) || c === 0x7f || c === 0xfffd) return true;
  }
  return false;
}
