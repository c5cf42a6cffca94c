#!/usr/bin/env node
// The `blis` binary (package.json "bin"). CommonJS, because an ES module entry costs every
// command Node's ES module loader, some 3-4 ms of each start-up. In the published package (no
// src/), or with BLIS_USE_DIST set, it runs the built CLI; in a workspace checkout it hands over
// to bin/blis.js, which runs the TypeScript sources through tsx (with the @blis/source condition).
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

if (existsSync(join(__dirname, '..', 'src', 'cli.ts')) && !process.env.BLIS_USE_DIST) {
  import('./blis.js');
} else {
  const built = join(__dirname, '..', 'dist', 'cli.cjs');
  if (!existsSync(built)) {
    process.stderr.write(`blis: ${built} is missing; run \`pnpm build\` (or unset BLIS_USE_DIST to run the sources)\n`);
    process.exit(1);
  }
  require(built);
}
