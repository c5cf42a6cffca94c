#!/usr/bin/env node
// Launcher for the `blis` binary. In the published package (no src/) it runs the built CLI. In
// a workspace checkout (src/ present, BLIS_USE_DIST unset) it runs the TypeScript sources
// through tsx with the @blis/source condition, so `pnpm exec blis` works without a build step.
// Node's built-ins come through `require`: each `import` of one costs an ES module start-up
// about 2 ms more, and this file runs before every command.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { existsSync } = require('node:fs');
const { fileURLToPath } = require('node:url');

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const source = here('../src/cli.ts');
const built = here('../dist/cli.cjs');

function resolveTsx() {
  try {
    return import.meta.resolve('tsx');
  } catch {
    return undefined;
  }
}

function runBuilt() {
  if (!existsSync(built)) {
    process.stderr.write(`blis: ${built} is missing; run \`pnpm build\` (or unset BLIS_USE_DIST to run the sources)\n`);
    process.exit(1);
  }
  require(built);
}

function runSource(loader) {
  const { spawn } = require('node:child_process');
  const child = spawn(process.execPath, ['--conditions=@blis/source', '--import', loader, source, ...process.argv.slice(2)], { stdio: 'inherit' });
  // The child shares our terminal, so Ctrl-C reaches it directly; signals sent to this process
  // alone (kill <pid>, a supervisor) are passed on so the child never outlives the launcher.
  const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const s of forwarded) process.on(s, forward);
  child.on('error', (e) => {
    process.stderr.write(`blis: cannot start ${process.execPath}: ${e.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const s of forwarded) process.off(s, forward);
    if (signal) {
      // Die of the same signal so the caller sees what the child saw.
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}

if (existsSync(source) && !process.env.BLIS_USE_DIST) {
  const loader = resolveTsx();
  if (loader !== undefined) runSource(loader);
  else runBuilt();
} else {
  runBuilt();
}
