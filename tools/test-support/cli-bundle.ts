import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'tsup';
import type { TestProject } from 'vitest/node';
import { binaryBuilds } from '../../packages/cli/tsup.binary.js';

// Vitest's global set-up: builds the `blis` binary (the bundle `pnpm build` puts in
// packages/cli/dist, from the same tsup options) into packages/cli/.test-bin once per test run,
// and provides its launcher's path, so that CLI tests start the binary users run. A process
// transpiling the sources through tsx spent about a second of CPU before reading its first
// flag, and the suite starts hundreds of them. The build is skipped while no source changed
// since the last one. BLIS_TEST_CLI=sources runs every test's CLI from its sources instead.

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test build's launcher (`.test-bin/cli.cjs`), or '' when tests run the CLI from its sources. */
    blisTestBin: string;
  }
}

const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'packages', 'cli');
const OUT = join(CLI, '.test-bin');
const STAMP = join(OUT, 'sources.stamp');

/** Every file the bundle is built from, with its modification time: the build's identity. */
function sourceStamp(): string {
  const parts: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else parts.push(`${p}\t${statSync(p).mtimeMs}`);
    }
  };
  for (const pkg of readdirSync(join(ROOT, 'packages'))) {
    const src = join(ROOT, 'packages', pkg, 'src');
    if (existsSync(src)) walk(src);
    const manifest = join(ROOT, 'packages', pkg, 'package.json');
    if (existsSync(manifest)) parts.push(`${manifest}\t${statSync(manifest).mtimeMs}`);
  }
  // The build options, and the dependencies bundled in (zod, yaml, commander, pure-rand).
  for (const f of [join(CLI, 'tsup.binary.ts'), join(ROOT, 'pnpm-lock.yaml')]) parts.push(`${f}\t${statSync(f).mtimeMs}`);
  return parts.sort().join('\n');
}

export default async function setup(project: TestProject): Promise<void> {
  if (process.env.BLIS_TEST_CLI === 'sources') {
    project.provide('blisTestBin', '');
    return;
  }
  const stamp = sourceStamp();
  if (!existsSync(STAMP) || readFileSync(STAMP, 'utf8') !== stamp) {
    // Built beside, then moved in: a test run elsewhere in this checkout may be using the old one.
    const tmp = `${OUT}.${process.pid}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    // tsup leaves the dependencies of the package.json in the working directory external; this
    // runs from the root, so it is told the CLI's.
    const manifest = JSON.parse(readFileSync(join(CLI, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
    const external = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})];
    for (const options of binaryBuilds(tmp)) {
      const entry = Object.fromEntries(Object.entries(options.entry as Record<string, string>).map(([k, v]) => [k, join(CLI, v)]));
      await build({ ...options, entry, external, config: false, silent: true });
    }
    writeFileSync(join(tmp, 'sources.stamp'), stamp);
    rmSync(OUT, { recursive: true, force: true });
    renameSync(tmp, OUT);
  }
  project.provide('blisTestBin', join(OUT, 'cli.cjs'));
}
