// Shared by tools/check-packages.mjs and tools/pack-smoke.mjs: find the publishable workspace
// packages, pack them the way `pnpm publish` would, and read what ended up in the tarball.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Every non-private package under packages/, in dependency order (a package after the workspace
 * packages it depends on), so output reads bottom-up like DESIGN.md's graph.
 * @returns {{ name: string, dir: string, manifest: Record<string, any> }[]}
 */
export function publishablePackages() {
  const base = join(repoRoot, 'packages');
  const all = readdirSync(base)
    .filter((d) => existsSync(join(base, d, 'package.json')))
    .map((d) => ({ dir: join(base, d), manifest: JSON.parse(readFileSync(join(base, d, 'package.json'), 'utf8')) }))
    .filter((p) => p.manifest.private !== true)
    .map((p) => ({ ...p, name: p.manifest.name }));
  const byName = new Map(all.map((p) => [p.name, p]));
  const ordered = [];
  const seen = new Set();
  const visit = (p) => {
    if (seen.has(p.name)) return;
    seen.add(p.name);
    for (const dep of Object.keys(p.manifest.dependencies ?? {})) if (byName.has(dep)) visit(byName.get(dep));
    ordered.push(p);
  };
  for (const p of [...all].sort((a, b) => a.name.localeCompare(b.name))) visit(p);
  return ordered;
}

/**
 * Runs a command without a shell; resolves to its exit code and captured output.
 * @param {string} cmd @param {string[]} args @param {{ cwd?: string, env?: NodeJS.ProcessEnv, inherit?: boolean }} [opts]
 * @returns {Promise<{ code: number, stdout: string, stderr: string }>}
 */
export function run(cmd, args, opts = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd ?? repoRoot,
      env: opts.env ?? process.env,
      stdio: opts.inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (b) => (stdout += b));
    child.stderr?.on('data', (b) => (stderr += b));
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code: code ?? (signal ? 128 : 1), stdout, stderr }));
  });
}

/** pnpm, as installed, or through npx when it is not on PATH (as .ci/run may arrange). */
export function pnpmCommand() {
  const fromEnv = process.env.npm_execpath;
  // When run as `pnpm <script>`, npm_execpath points at the pnpm that is running us.
  if (fromEnv && /pnpm/.test(fromEnv)) return /\.[cm]?js$/.test(fromEnv) ? { cmd: process.execPath, pre: [fromEnv] } : { cmd: fromEnv, pre: [] };
  return { cmd: 'pnpm', pre: [] };
}

/**
 * `pnpm pack` one package into `destDir` (publishConfig applied, workspace:* rewritten).
 * @returns {Promise<string>} the tarball path
 */
export async function pack(pkg, destDir) {
  const { cmd, pre } = pnpmCommand();
  const r = await run(cmd, [...pre, 'pack', '--pack-destination', destDir, '--json'], { cwd: pkg.dir });
  if (r.code !== 0) throw new Error(`pnpm pack failed in ${pkg.dir}:\n${r.stdout}${r.stderr}`);
  const json = JSON.parse(r.stdout.slice(r.stdout.indexOf('{')));
  return json.filename;
}

/**
 * The files in a .tgz, as a map from path (without the leading `package/`) to contents.
 * A small ustar/pax reader, so the tools need no `tar` binary.
 * @param {string} tarball @returns {Map<string, Buffer>}
 */
export function readTarball(tarball) {
  const buf = gunzipSync(readFileSync(tarball));
  const files = new Map();
  const str = (b) => b.toString('utf8').replace(/\0.*$/s, '');
  let pendingPath;
  for (let off = 0; off + 512 <= buf.length; ) {
    const header = buf.subarray(off, off + 512);
    if (header.every((x) => x === 0)) break;
    const size = Number.parseInt(str(header.subarray(124, 136)).trim() || '0', 8);
    const type = String.fromCharCode(header[156] || 48);
    const prefix = str(header.subarray(345, 500));
    const name = str(header.subarray(0, 100));
    const body = buf.subarray(off + 512, off + 512 + size);
    off += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      const m = /\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      if (m) pendingPath = m[1];
      continue;
    }
    if (type === 'g') continue;
    const path = pendingPath ?? (prefix ? `${prefix}/${name}` : name);
    pendingPath = undefined;
    if (type === '0' || type === '\0') files.set(path.replace(/^[^/]+\//, ''), Buffer.from(body));
  }
  return files;
}

/**
 * The code subpaths a manifest's `exports` names (`.`, `./testing`, ...), without
 * `./package.json` and patterns; `.` alone for a bare string or condition map.
 * @param {Record<string, any>} manifest @returns {string[]}
 */
export function exportSubpaths(manifest) {
  const ex = manifest.exports;
  if (ex === undefined) return [];
  if (typeof ex === 'string' || Object.keys(ex).every((k) => !k.startsWith('.'))) return ['.'];
  return Object.keys(ex).filter((k) => k !== './package.json' && !k.includes('*'));
}

/** The import specifier of a subpath: `@blis/x` for `.`, `@blis/x/testing` for `./testing`. */
export function subpathSpecifier(name, subpath) {
  return subpath === '.' ? name : `${name}/${subpath.slice(2)}`;
}

/** Absolute path of a dev tool's bin script, run with `node` so no shell or PATH is involved. */
export function toolBin(pkgName, binName) {
  // Root devDependencies are linked at node_modules/<name> (some tools do not export ./package.json).
  const manifestPath = join(repoRoot, 'node_modules', pkgName, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const rel = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[binName];
  return join(dirname(manifestPath), rel);
}

/** Runs `fn` over `items` with at most `limit` in flight; results keep input order. */
export async function mapLimit(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Fails early with one clear line when the packages have not been built. */
export function requireBuilt(pkgs) {
  const missing = pkgs.filter((p) => !existsSync(join(p.dir, 'dist')));
  if (missing.length > 0) {
    process.stderr.write(`no dist/ in ${missing.map((p) => p.name).join(', ')}: run \`pnpm build\` first\n`);
    process.exit(1);
  }
}
