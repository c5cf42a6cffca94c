import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('@blis/report sources', () => {
  // The browser playground imports this package: no Node built-in may appear in src.
  it('import no Node built-in', () => {
    const builtins = new Set(builtinModules);
    const offenders: string[] = [];
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:from\s*|import\s*\(\s*)['"]([^'"]+)['"]/g)) {
        const spec = m[1];
        if (spec.startsWith('node:') || builtins.has(spec) || builtins.has(spec.split('/')[0])) offenders.push(`${file}: ${spec}`);
      }
      if (/\bprocess\.|\bBuffer\b|\brequire\(/.test(text)) offenders.push(`${file}: uses a Node global`);
    }
    expect(offenders).toEqual([]);
  });
});
