#!/usr/bin/env node
// `pnpm publint`: checks every publishable package as it would be published. Each one is packed
// with `pnpm pack` (publishConfig applied, workspace:* rewritten), and the TARBALL is checked:
// its package.json (no @blis/source condition, no workspace: ranges, every referenced file
// present, no sources or tests shipped, ./testing bundles and the `browser` targets of
// `imports` free of Node built-ins), then `publint --strict` and `attw --profile node16` over
// EVERY subpath the manifest's `exports` names (ESM + CJS for Node; node10 resolution is out of
// scope with engines >= 20.19).
// Needs `pnpm build` first. Exits 1 if any package has any problem.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportSubpaths, mapLimit, pack, publishablePackages, readTarball, requireBuilt, run, toolBin } from './lib/packages.mjs';

const keep = process.argv.includes('--keep');
const pkgs = publishablePackages();
requireBuilt(pkgs);
const publintBin = toolBin('publint', 'publint');
const attwBin = toolBin('@arethetypeswrong/cli', 'attw');
const tmp = mkdtempSync(join(tmpdir(), 'blis-check-'));

/** Every string leaf of an exports/bin value: the files the manifest promises. */
function targets(value) {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(targets);
  return [];
}

/** Problems with the packed package.json and file list, one sentence each. */
function manifestProblems(files) {
  const problems = [];
  const raw = files.get('package.json');
  if (!raw) return ['the tarball has no package.json'];
  const text = raw.toString('utf8');
  const m = JSON.parse(text);
  if (text.includes('@blis/source')) problems.push('packed package.json still has the @blis/source condition (publishConfig.exports was not applied)');
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [dep, range] of Object.entries(m[field] ?? {})) {
      if (/^(workspace|link|file|portal):/.test(range)) problems.push(`${field}.${dep} is "${range}" in the tarball; expected a registry version`);
    }
  }
  if (m.license !== 'Apache-2.0') problems.push(`license is ${JSON.stringify(m.license)}; expected "Apache-2.0"`);
  if (m.publishConfig?.access !== 'public') problems.push('publishConfig.access must be "public" for a scoped package');
  if (!m.exports) problems.push('no "exports" field');
  const promised = [
    ...['main', 'module', 'types'].filter((f) => typeof m[f] === 'string').map((f) => [f, m[f]]),
    ...targets(m.exports).map((t) => ['exports', t]),
    ...targets(m.bin).map((t) => ['bin', t]),
    ...targets(m.imports).map((t) => ['imports', t]),
  ];
  for (const [field, target] of promised) {
    const path = target.replace(/^\.\//, '');
    if (path.includes('*')) continue;
    if (/\.(ts|tsx|mts|cts)$/.test(path) && !/\.d\.[cm]?ts$/.test(path)) problems.push(`${field} points at TypeScript source ${target}`);
    if (!files.has(path)) problems.push(`${field} points at ${target}, which is not in the tarball`);
  }
  for (const binPath of targets(m.bin)) {
    const body = files.get(binPath.replace(/^\.\//, ''));
    if (body && !body.toString('utf8').startsWith('#!/usr/bin/env node')) problems.push(`bin ${binPath} does not start with #!/usr/bin/env node`);
  }
  const shippedSources = [...files.keys()].filter((f) => /^(src|test)\//.test(f));
  if (shippedSources.length > 0) problems.push(`ships sources or tests: ${shippedSources.slice(0, 5).join(', ')}${shippedSources.length > 5 ? ', ...' : ''}`);
  problems.push(...browserUnsafeTesting(m, files));
  for (const required of ['README.md', 'LICENSE']) if (!files.has(required)) problems.push(`${required} is not in the tarball`);
  return problems;
}

/**
 * The ./testing entries are browser-safe (DESIGN.md), and so are the `browser` targets of the
 * package's `imports` (`#host-files`, the stand-in for file access): their built files, and the
 * chunks they pull in, must not import a Node built-in.
 */
function browserUnsafeTesting(m, files) {
  const problems = [];
  const roots = [
    ...targets(m.exports?.['./testing']).map((t) => ['./testing', t]),
    ...Object.entries(m.imports ?? {}).flatMap(([name, value]) => targets(value?.browser).map((t) => [`${name} (browser)`, t])),
  ].filter(([, t]) => /\.[cm]?js$/.test(t));
  const seen = new Set();
  const visit = (path, from, label) => {
    if (seen.has(path)) return;
    seen.add(path);
    const body = files.get(path)?.toString('utf8');
    if (body === undefined) return;
    for (const [, spec] of body.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s*)['"]([^'"]+)['"]/gm)) {
      if (/^node:|^(fs|path|os|child_process|worker_threads|module|url|crypto|util|stream|zlib|net|http|https|events|buffer|string_decoder|readline|perf_hooks|v8|vm|assert|tty)$/.test(spec))
        problems.push(`${label} is not browser-safe: ${from === path ? path : `${path} (via ${from})`} imports ${spec}`);
      else if (spec.startsWith('./')) visit(join(path, '..', spec).replace(/^\.\//, ''), from, label);
    }
  };
  for (const [label, target] of roots) {
    const path = target.replace(/^\.\//, '');
    visit(path, path, label);
  }
  return problems;
}

async function check(pkg) {
  const lines = [];
  let ok = true;
  const fail = (what, detail) => {
    ok = false;
    lines.push(`  ✗ ${what}${detail ? `\n${detail.replace(/^/gm, '      ')}` : ''}`);
  };
  let tarball;
  try {
    tarball = await pack(pkg, tmp);
  } catch (e) {
    fail('pnpm pack', String(e.message));
    return { pkg, ok, lines };
  }
  const files = readTarball(tarball);
  const problems = manifestProblems(files);
  if (problems.length > 0) fail('packed manifest', problems.join('\n'));
  else lines.push(`  ✓ packed manifest (${files.size} files)`);

  const publint = await run(process.execPath, [publintBin, 'run', tarball, '--strict']);
  if (publint.code !== 0) fail('publint --strict', (publint.stdout + publint.stderr).trim());
  else lines.push('  ✓ publint --strict');

  // Every subpath explicitly (attw's own discovery is a heuristic), so a new subpath is covered
  // the moment it appears in `exports`.
  const entrypoints = exportSubpaths(JSON.parse(files.get('package.json')?.toString('utf8') ?? '{}'));
  const attw = await run(process.execPath, [attwBin, tarball, '--format', 'ascii', '--profile', 'node16', '--no-emoji', '--no-color', '--entrypoints', ...entrypoints]);
  if (attw.code !== 0) fail(`attw --profile node16 (${entrypoints.join(', ')})`, (attw.stdout + attw.stderr).trim());
  else lines.push(`  ✓ attw --profile node16 (${entrypoints.join(', ')})`);
  return { pkg, ok, lines };
}

let failed = 0;
try {
  const results = await mapLimit(pkgs, Math.max(1, Math.min(4, availableParallelism())), check);
  for (const r of results) {
    process.stdout.write(`${r.ok ? '✓' : '✗'} ${r.pkg.name}\n${r.lines.join('\n')}\n`);
    if (!r.ok) failed++;
  }
} finally {
  if (keep) process.stdout.write(`tarballs kept in ${tmp}\n`);
  else rmSync(tmp, { recursive: true, force: true });
}
process.stdout.write(`\n${pkgs.length - failed}/${pkgs.length} packages pass publint + attw\n`);
process.exit(failed === 0 ? 0 : 1);
