import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// pnpm 10 runs no dependency's install script unless the workspace allows it, and prints a
// warning box at every fresh install for each one it was never told about. Every installed
// package with an install script is decided in pnpm-workspace.yaml, built or ignored, so a new
// user's first install is quiet (and a new dependency with a script fails here until decided).

const ROOT = join(import.meta.dirname, '..', '..');
const STORE = join(ROOT, 'node_modules', '.pnpm');
const SCRIPTS = ['preinstall', 'install', 'postinstall'];

/** Installed packages (name@version) whose package.json runs something at install time. */
function withInstallScripts(): string[] {
  const out = new Set<string>();
  for (const dir of readdirSync(STORE)) {
    const modules = join(STORE, dir, 'node_modules');
    if (!existsSync(modules)) continue;
    for (const entry of readdirSync(modules)) {
      const names = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((n) => `${entry}/${n}`) : [entry];
      for (const name of names) {
        const manifest = join(modules, name, 'package.json');
        if (!existsSync(manifest)) continue;
        const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string; scripts?: Record<string, string> };
        // Only the package this store entry is for (its node_modules also links its dependencies).
        if (pkg.name === undefined || !dir.startsWith(`${pkg.name.replace('/', '+')}@`)) continue;
        if (SCRIPTS.some((s) => pkg.scripts?.[s] !== undefined)) out.add(pkg.name);
      }
    }
  }
  return [...out].sort();
}

describe('pnpm-workspace.yaml', () => {
  it('decides every dependency with an install script (built or ignored), so a fresh install prints no warning', () => {
    const ws = parse(readFileSync(join(ROOT, 'pnpm-workspace.yaml'), 'utf8')) as { onlyBuiltDependencies?: string[]; ignoredBuiltDependencies?: string[] };
    const decided = new Set([...(ws.onlyBuiltDependencies ?? []), ...(ws.ignoredBuiltDependencies ?? [])]);
    const scripted = withInstallScripts();
    expect(scripted).toContain('esbuild');
    expect(scripted.filter((name) => !decided.has(name))).toEqual([]);
  });
});
