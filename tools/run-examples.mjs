#!/usr/bin/env node
// `node tools/run-examples.mjs [name...]`: builds and tests every example against the PACKED
// packages, as a user outside this repository would get them, never the workspace sources.
//  1. `pnpm pack` every publishable package (publishConfig applied, workspace:* rewritten).
//  2. Each examples/<dir> with a package.json that has a `test` script is copied (without
//     node_modules and dist) into a temp dir; its @blis/* dependencies (all dependency fields)
//     become `file:` tarballs, pinned for transitive @blis/* dependencies too with npm `overrides`.
//  3. `npm install`, `npm run build --if-present`, `npm test` there. One line per example.
// Needs `pnpm build` first. Names restrict the run to those examples; `--keep` keeps the temp dir.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pack, publishablePackages, repoRoot, requireBuilt, run } from './lib/packages.mjs';

const args = process.argv.slice(2);
const keep = args.includes('--keep');
const only = args.filter((a) => !a.startsWith('--'));
const say = (s) => process.stdout.write(`${s}\n`);

const examplesDir = join(repoRoot, 'examples');
const examples = readdirSync(examplesDir)
  .filter((d) => existsSync(join(examplesDir, d, 'package.json')))
  .filter((d) => JSON.parse(readFileSync(join(examplesDir, d, 'package.json'), 'utf8')).scripts?.test)
  .filter((d) => only.length === 0 || only.includes(d))
  .sort();
const unknown = only.filter((d) => !examples.includes(d));
if (unknown.length > 0) {
  process.stderr.write(`no example with a test script named ${unknown.join(', ')} in examples/\n`);
  process.exit(2);
}

/** npm must not inherit pnpm's own npm_* settings when this runs under pnpm. */
function npmEnv() {
  const env = {};
  const keepVars = /^npm_config_(registry|cache|userconfig|https?_proxy|proxy|noproxy|strict_ssl|cafile|ca)$/i;
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) || keepVars.test(k)) env[k] = v;
  // Nothing may find the workspace's CLI through the environment.
  delete env.BLIS_BIN;
  delete env.BLIS_USE_DIST;
  return env;
}

/** The example's manifest with every @blis/* dependency pointing at its tarball. */
function rewriteManifest(manifest, tarballs) {
  const m = structuredClone(manifest);
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
    for (const dep of Object.keys(m[field] ?? {})) {
      if (!dep.startsWith('@blis/')) continue;
      const file = tarballs.get(dep);
      if (file === undefined) throw new Error(`${manifest.name} depends on ${dep}, which is not a publishable package`);
      m[field][dep] = `file:${file}`;
    }
  }
  const pinned = Object.fromEntries([...tarballs].map(([name, file]) => [name, `file:${file}`]));
  m.overrides = { ...(m.overrides ?? {}), ...pinned };
  return m;
}

const pkgs = publishablePackages();
requireBuilt(pkgs);
const tmp = mkdtempSync(join(tmpdir(), 'blis-examples-'));
let failed = 0;
try {
  say(`packing ${pkgs.length} packages into ${tmp}`);
  const tarballs = new Map();
  for (const p of pkgs) tarballs.set(p.name, await pack(p, tmp));
  for (const name of examples) {
    const src = join(examplesDir, name);
    const dir = join(tmp, 'examples', name);
    cpSync(src, dir, { recursive: true, filter: (f) => !['node_modules', 'dist'].includes(basename(f)) });
    const manifest = JSON.parse(readFileSync(join(src, 'package.json'), 'utf8'));
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(rewriteManifest(manifest, tarballs), null, 2)}\n`);
    const env = npmEnv();
    const steps = [
      ['npm install', ['install', '--no-audit', '--no-fund', '--loglevel=error']],
      ['build', ['run', 'build', '--if-present']],
      ['test', ['test']],
    ];
    let problem;
    for (const [label, npmArgs] of steps) {
      const r = await run('npm', npmArgs, { cwd: dir, env });
      if (r.code !== 0) {
        problem = `${label} failed (exit ${r.code})\n${r.stdout.slice(-6000)}${r.stderr.slice(-6000)}`;
        break;
      }
    }
    if (problem === undefined) say(`✓ ${name}: installed from tarballs, built, tests pass`);
    else {
      failed++;
      say(`✗ ${name}: ${problem.replace(/\n/g, '\n    ')}`);
    }
  }
} finally {
  if (keep) say(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
say(`\n${examples.length - failed}/${examples.length} examples pass against the packed packages`);
process.exit(failed === 0 ? 0 : 1);
