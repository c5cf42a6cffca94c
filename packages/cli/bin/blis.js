#!/usr/bin/env node
// Launcher for the `blis` binary. In the published package it runs the built CLI. In a
// workspace checkout (src/ present, BLIS_USE_DIST unset) it runs the TypeScript sources through
// tsx with the @blis/source condition, so `pnpm exec blis` works without a build step.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const source = here('../src/cli.ts');
const built = here('../dist/cli.js');

if (existsSync(source) && !process.env.BLIS_USE_DIST) {
  let loader;
  try {
    loader = import.meta.resolve('tsx');
  } catch {
    loader = undefined;
  }
  if (loader === undefined) {
    if (!existsSync(built)) {
      process.stderr.write('blis: neither tsx (for the sources) nor a build (dist/) is available; run pnpm install or pnpm build\n');
      process.exit(1);
    }
    await import(pathToFileURL(built).href);
  } else {
    const r = spawnSync(process.execPath, ['--conditions=@blis/source', '--import', loader, source, ...process.argv.slice(2)], { stdio: 'inherit' });
    if (r.signal) process.kill(process.pid, r.signal);
    process.exit(r.status ?? 1);
  }
} else {
  await import(pathToFileURL(built).href);
}
