import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs helper of the tools, without declarations
import { firstDifferences, normalizeReport } from '../lib/api-report-text.mjs';

// `pnpm api:check` compares reports after normalizing: a comment that moves declarations down
// the built .d.ts, a new chunk hash or a CRLF checkout must not fail CI; a changed name must.

const report = (place: string, name: string, eol = '\n'): string =>
  [`## API Report File for "@blis/x"`, '', `export function ${name}(): void;`, '', '// Warnings were encountered during analysis:', '//', `// ${place} - (ae-forgotten-export) The symbol "Y" needs to be exported by the entry point index.d.ts`, ''].join(eol);

describe('normalizeReport', () => {
  it('drops the .d.ts place of a warning, whatever its file, line or column', () => {
    const a = normalizeReport(report('dist/index.d.ts:12:5', 'run'));
    expect(a).toContain('// (ae-forgotten-export) The symbol "Y"');
    expect(normalizeReport(report('dist/kv-capacity-CxprL2Zv.d.ts:840:3', 'run'))).toBe(a);
    expect(normalizeReport(report('dist/internal.d.cts:1:1', 'run'))).toBe(a);
  });

  it('reads CRLF and LF reports alike', () => {
    expect(normalizeReport(report('dist/index.d.ts:1:1', 'run', '\r\n'))).toBe(normalizeReport(report('dist/index.d.ts:1:1', 'run')));
  });

  it('keeps every change to the surface', () => {
    expect(normalizeReport(report('dist/index.d.ts:1:1', 'run'))).not.toBe(normalizeReport(report('dist/index.d.ts:1:1', 'walk')));
  });

  it('sorts a union of plain names and literals, whatever order TypeScript printed it in', () => {
    expect(normalizeReport('    version: z.ZodTransform<"2", 2 | 1 | "1" | "2">>;\n')).toBe('    version: z.ZodTransform<"2", "1" | "2" | 1 | 2>>;\n');
    expect(normalizeReport('export type T = "b" | "a";\n')).toBe('export type T = "a" | "b";\n');
    expect(normalizeReport('f(x: 2 | 1, y: number): void;\n')).toBe('f(x: 1 | 2, y: number): void;\n');
  });

  it('leaves a union with a generic or bracketed member as it is', () => {
    for (const text of ['  c: Z | B<C> | A;\n', '  b: Array<X> | undefined;\n', '  d: (Z | A)[] | B;\n']) {
      const out = normalizeReport(text);
      expect(out.replace(/\(A \| Z\)/, '(Z | A)')).toBe(text);
    }
  });

  it('leaves lines that are not warnings alone, even with a .d.ts place in them', () => {
    const text = 'export type T = "dist/index.d.ts:1:2 - (";\n';
    expect(normalizeReport(text)).toBe(text);
  });
});

describe('firstDifferences', () => {
  it('names the first differing lines, committed before built', () => {
    expect(firstDifferences('a\nb\nc', 'a\nB\nc')).toBe('  line 2: committed "b"\n  line 2: built     "B"');
  });

  it('shows a missing line as the end of the file and stops at the limit', () => {
    expect(firstDifferences('a', 'a\nb')).toBe('  line 2: committed "(end)"\n  line 2: built     "b"');
    expect(firstDifferences('1\n2\n3', 'x\ny\nz', 2).split('\n')).toHaveLength(4);
  });
});
