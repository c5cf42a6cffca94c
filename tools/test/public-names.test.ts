import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The README, the docs and the examples teach the stable surface: every name they import from
// an `@blis/*` package must be exported by that entry point's committed API report
// (`packages/<pkg>/api/<entry>.api.md`, which `pnpm api:check` keeps in step with the build),
// and none may import the unstable `./internal` entries.

const ROOT = join(import.meta.dirname, '..', '..');

/** Every exported name of each published entry point, from its API report. */
function surfaces(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const pkg of readdirSync(join(ROOT, 'packages'))) {
    const dir = join(ROOT, 'packages', pkg, 'api');
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.api.md'));
    } catch {
      continue;
    }
    for (const f of files) {
      const sub = f.slice(0, -'.api.md'.length).slice(pkg.length);
      const names = new Set<string>();
      for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/^export (?:declare )?(?:abstract )?(?:class|const|function|interface|type|enum|namespace|let) ([A-Za-z_$][\w$]*)/gm)) names.add(m[1]!);
      for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/^export \{ ([^}]*) \}/gm)) for (const n of m[1]!.split(',')) names.add(n.trim());
      out.set(`@blis/${pkg}${sub === '' ? '' : `/${sub.slice(1)}`}`, names);
    }
  }
  return out;
}

/** The files that teach: the READMEs, docs/ (not the generated API pages) and examples/. */
function teachingFiles(): string[] {
  const files = [join(ROOT, 'README.md')];
  const walk = (dir: string, keep: (f: string) => boolean): void => {
    for (const e of readdirSync(dir)) {
      if (e === 'node_modules' || e === 'dist' || e === 'api') continue;
      const p = join(dir, e);
      if (statSync(p).isDirectory()) walk(p, keep);
      else if (keep(p)) files.push(p);
    }
  };
  walk(join(ROOT, 'docs'), (f) => f.endsWith('.md'));
  walk(join(ROOT, 'examples'), (f) => /\.(md|ts|tsx|mts|js|mjs|cjs)$/.test(f));
  for (const pkg of readdirSync(join(ROOT, 'packages'))) files.push(join(ROOT, 'packages', pkg, 'README.md'));
  return files.filter((f) => {
    try {
      return statSync(f).isFile();
    } catch {
      return false;
    }
  });
}

interface Use {
  file: string;
  line: number;
  entry: string;
  names: string[];
}

const IMPORT_FORMS = [
  /\bimport\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"](@blis\/[\w-]+(?:\/[\w-]+)?)['"]/g,
  /\bexport\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"](@blis\/[\w-]+(?:\/[\w-]+)?)['"]/g,
  /\b(?:const|let|var)\s*\{([^}]*)\}\s*=\s*(?:await\s+import|require)\(\s*['"](@blis\/[\w-]+(?:\/[\w-]+)?)['"]\s*\)/g,
];

/** The names each file imports from an `@blis/*` entry (its `*.json` subpaths are files, not names). */
function usesIn(file: string, text: string): Use[] {
  const uses: Use[] = [];
  for (const form of IMPORT_FORMS) {
    for (const m of text.matchAll(form)) {
      const names = m[1]!
        .split(',')
        .map((s) => s.trim().replace(/^type\s+/, '').split(/\s+as\s+|\s*:\s*/)[0]!)
        .filter((s) => /^[A-Za-z_$][\w$]*$/.test(s));
      uses.push({ file, line: text.slice(0, m.index).split('\n').length, entry: m[2]!, names });
    }
  }
  return uses;
}

describe('the README, docs and examples use only public names', () => {
  const api = surfaces();
  const uses = teachingFiles().flatMap((f) => usesIn(relative(ROOT, f), readFileSync(f, 'utf8')));

  it('finds the API reports and the imports to check', () => {
    expect(api.get('@blis/cluster')?.has('simulate')).toBe(true);
    expect(uses.length).toBeGreaterThan(20);
  });

  it('imports nothing from an ./internal entry', () => {
    expect(uses.filter((u) => u.entry.endsWith('/internal')).map((u) => `${u.file}:${u.line} ${u.entry}`)).toEqual([]);
  });

  it('imports only names the entry point exports', () => {
    const missing: string[] = [];
    for (const u of uses) {
      const names = api.get(u.entry);
      if (names === undefined) missing.push(`${u.file}:${u.line}: no published entry ${u.entry}`);
      else for (const n of u.names) if (!names.has(n)) missing.push(`${u.file}:${u.line}: ${u.entry} does not export ${n}`);
    }
    expect(missing).toEqual([]);
  });

  it('reads the import forms the docs use', () => {
    const text = "import { simulate, type SimulationResult as R } from '@blis/cluster';\nconst { evaluate } = await import('@blis/adapters');\nexport { x } from '@blis/policies/internal';";
    expect(usesIn('t.md', text)).toEqual([
      { file: 't.md', line: 1, entry: '@blis/cluster', names: ['simulate', 'SimulationResult'] },
      { file: 't.md', line: 3, entry: '@blis/policies/internal', names: ['x'] },
      { file: 't.md', line: 2, entry: '@blis/adapters', names: ['evaluate'] },
    ]);
  });
});
