#!/usr/bin/env node
// `pnpm smoke`: installs the packed packages the way a user would and uses them.
//  1. `pnpm pack` every publishable package (workspace:* becomes the real version).
//  2. A throwaway npm project installs ALL tarballs at once, with `overrides` pinning every
//     @blis/* name to its tarball, so inter-package dependencies resolve to the tarballs and
//     never to the registry (third-party dependencies do come from the registry).
//  3. Every subpath of every package's `exports` (`.`, `./testing`, ...) is loaded with import()
//     and with require(); both must expose every value export that the subpath's TypeScript
//     source (its `@blis/source` target) declares (found with the compiler API), and at least
//     one when the source declares any. JSON subpaths must load and parse both ways.
//  4. The installed `blis` binary must answer --help and --version (= package version) with
//     exit 0, run a 20-request simulation that prints JSON, and one from a spec file, and
//     evaluate a TypeScript policy module in its sandbox thread.
//  5. The installed @blis/cluster, bundled for the browser (esbuild, `platform: 'browser'`),
//     reaches no Node built-in: `#host-files` resolves to the dist/host/files.browser.js files.
// Needs `pnpm build` first. `--keep` leaves the temp project for inspection.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire, isBuiltin } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { exportSubpaths, pack, publishablePackages, repoRoot, requireBuilt, run, subpathSpecifier } from './lib/packages.mjs';

const keep = process.argv.includes('--keep');
const pkgs = publishablePackages();
requireBuilt(pkgs);
const tmp = mkdtempSync(join(tmpdir(), 'blis-smoke-'));
const problems = [];
const say = (s) => process.stdout.write(`${s}\n`);

/** The TypeScript source behind a subpath (its `@blis/source` target), or undefined (JSON, assets). */
function sourceOf(pkg, subpath) {
  const entry = pkg.manifest.exports?.[subpath];
  const src = entry && typeof entry === 'object' ? entry['@blis/source'] : undefined;
  return typeof src === 'string' ? join(pkg.dir, src) : undefined;
}

/**
 * Every subpath to load, by import specifier (`@blis/workload/testing`): the value (runtime)
 * exports its TypeScript source declares, or `null` for a subpath without a source (JSON).
 */
function declaredValueExports() {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => problems.push(ts.flattenDiagnosticMessageText(d.messageText, '\n')) };
  const config = ts.getParsedCommandLineOfConfigFile(join(repoRoot, 'tsconfig.json'), {}, host);
  const entries = pkgs.flatMap((p) => exportSubpaths(p.manifest).map((sub) => ({ spec: subpathSpecifier(p.name, sub), source: sourceOf(p, sub) })));
  const roots = entries.map((e) => e.source).filter((s) => s !== undefined);
  const program = ts.createProgram(roots, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const out = new Map();
  for (const { spec, source } of entries) {
    if (source === undefined) {
      out.set(spec, null);
      continue;
    }
    const sf = program.getSourceFile(source);
    const moduleSymbol = sf && checker.getSymbolAtLocation(sf);
    const names = (moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []).filter((s) => {
      if ((s.declarations ?? []).some((d) => ts.isTypeOnlyImportOrExportDeclaration(d))) return false;
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      return (target.flags & ts.SymbolFlags.Value) !== 0;
    });
    out.set(spec, names.map((s) => s.getName()).sort());
  }
  return out;
}

/**
 * The installed binary runs its bundle through V8's code cache, where `import()` works only
 * through the launcher's loader: a second run uses the cache the first left and prints the same
 * bytes, and the commands that import modules from outside the bundle work (tinypool for
 * `sweep --workers 2`, a user's routing module, Vega for `--report`).
 */
async function smokeCodeCacheAndImports(project, cacheDir, expectOk) {
  const args = ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '30', '--num-instances', '2', '--seed', '3'];
  rmSync(cacheDir, { recursive: true, force: true });
  let first;
  await expectOk(args, (out) => {
    first = out;
    return '';
  }, 'run with no code cache (leaves one)');
  const cached = existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => /^blis-.*-run\.v8cache$/.test(f)) : [];
  if (cached.length !== 1) {
    problems.push(`code cache: expected one blis-*-run.v8cache in ${cacheDir}, found ${JSON.stringify(cached)}`);
    say('✗ code cache written at exit');
  } else say(`✓ code cache written at exit (${cached[0]})`);
  await expectOk(args, (out) => (out === first ? '' : 'a second run (from the code cache) printed different bytes'), 'run again (from the code cache), same bytes');
  writeFileSync(join(project, 'first-instance.mjs'), 'export default () => ({ name: "first", route: () => ({ instance: 0, reason: "always the first" }) });\n');
  await expectOk(
    [...args, '--routing-policy', 'first-instance.mjs'],
    (out) => (JSON.parse(out).instances[1].completed_requests === 0 ? '' : 'the routing module did not route every request to instance 0'),
    'run --routing-policy first-instance.mjs (a user module, imported through the launcher)',
  );
  await expectOk([...args, '--report', 'report.html'], () => (/<svg/.test(readFileSync(join(project, 'report.html'), 'utf8')) ? '' : 'report.html has no chart'), 'run --report report.html (Vega)');
  writeFileSync(
    join(project, 'sweep.yaml'),
    'base:\n  numInstances: 2\n  model: meta-llama/llama-3.1-8b-instruct\n  workload: {kind: synthetic, numRequests: 20, rate: 10}\n  routing: {policy: weighted}\nseeds: [1]\nsearch: {kind: grid}\nparameters:\n  numInstances: [1, 2]\nmetrics: [ttft_p99_ms]\n',
  );
  await expectOk(['sweep', 'sweep.yaml', '--output', 'sweep.csv', '--workers', '2', '--quiet'], (out) => (JSON.parse(out).rows === 2 ? '' : 'not 2 rows'), 'sweep --workers 2 (tinypool)');
  await smokeEvaluateSandbox(project, cacheDir, expectOk);
}

/**
 * `blis evaluate` of a TypeScript policy module: its sandbox thread (dist/evaluate-sandbox-thread.cjs)
 * loads its own bundle through the code cache, compiles the candidate with the installed esbuild,
 * and the candidate's `@blis/policies` import gets the installed package. The first good answer
 * leaves the thread's cache; a second call answers the same bytes from it.
 */
async function smokeEvaluateSandbox(project, cacheDir, expectOk) {
  const text =
    "import { effectiveLoad, type RoutingPolicy } from '@blis/policies';\n" +
    "export default (): RoutingPolicy => ({ name: 'least', route(_req, state) { let best = 0; state.instances.forEach((s, i) => { if (effectiveLoad(s) < effectiveLoad(state.instances[best])) best = i; }); return { instance: best, reason: 'least loaded' }; } });\n";
  const request = {
    protocol: 'blis-eval/1',
    candidate: { kind: 'policy-module', language: 'typescript', text },
    base_config: { numInstances: 2 },
    scenarios: [{ id: 's', workload: { kind: 'synthetic', numRequests: 30, rate: 10 }, seeds: [1] }],
    objectives: { weights: { p99_ttft: 1 } },
    trace: 'summary',
  };
  writeFileSync(join(project, 'evaluate.json'), JSON.stringify(request));
  const args = ['evaluate', '--request', 'evaluate.json'];
  let first;
  const answered = (out) => {
    first = out;
    const status = JSON.parse(out).status;
    return status === 'ok' ? '' : `status ${status}: ${out.slice(0, 500)}`;
  };
  await expectOk(args, answered, 'evaluate a TypeScript policy module (sandbox thread)');
  const cached = existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => /^blis-.*-evaluate-sandbox\.v8cache$/.test(f)) : [];
  if (cached.length !== 1) {
    problems.push(`code cache: expected one blis-*-evaluate-sandbox.v8cache in ${cacheDir}, found ${JSON.stringify(cached)}`);
    say('✗ sandbox thread code cache written');
  } else say(`✓ sandbox thread code cache written (${cached[0]})`);
  await expectOk(args, (out) => (out === first ? '' : 'a second evaluation (thread from the code cache) printed different bytes'), 'evaluate again (thread from its code cache), same bytes');
}

/**
 * The installed (published) @blis/cluster bundled as a browser bundler would: its `#host-files`
 * imports must resolve to dist/host/files.browser.js and no Node built-in may be reached.
 */
async function browserBundleOfInstalled(project) {
  const esbuild = createRequire(createRequire(import.meta.url).resolve('tsup'))('esbuild');
  const builtins = [];
  const r = await esbuild.build({
    stdin: { contents: "export { simulate } from '@blis/cluster';", resolveDir: project },
    bundle: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    platform: 'browser',
    format: 'esm',
    plugins: [
      {
        name: 'record-node-builtins',
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) => {
            if (!args.path.startsWith('node:') && !isBuiltin(args.path)) return undefined;
            builtins.push(`${args.path} (from ${args.importer})`);
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  const inputs = Object.keys(r.metafile.inputs);
  const hosts = inputs.filter((f) => /\/dist\/host\/files/.test(f));
  const why =
    builtins.length > 0
      ? `imports Node built-ins: ${builtins.join(', ')}`
      : hosts.length === 0 || hosts.some((f) => !f.includes('files.browser'))
        ? `host modules bundled: ${hosts.join(', ') || 'none'} (expected only dist/host/files.browser.js ones)`
        : '';
  if (why) {
    problems.push(`browser bundle of the installed @blis/cluster: ${why}`);
    say(`✗ browser bundle of the installed @blis/cluster: ${why}`);
  } else say(`✓ browser bundle of the installed @blis/cluster: no Node built-in, ${hosts.length} browser host modules`);
}

/** npm must not inherit pnpm's own npm_* settings when this runs as `pnpm smoke`. */
function npmEnv() {
  const env = {};
  const keepVars = /^npm_config_(registry|cache|userconfig|https?_proxy|proxy|noproxy|strict_ssl|cafile|ca)$/i;
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) || keepVars.test(k)) env[k] = v;
  return env;
}

try {
  say(`packing ${pkgs.length} packages into ${tmp}`);
  const tarballs = new Map();
  for (const p of pkgs) tarballs.set(p.name, await pack(p, tmp));

  const project = join(tmp, 'project');
  const specs = Object.fromEntries([...tarballs].map(([name, file]) => [name, `file:${file}`]));
  // Optional peers (fast-check, for the ./testing subpaths) installed as their user would.
  const peers = Object.fromEntries(pkgs.flatMap((p) => Object.entries(p.manifest.peerDependencies ?? {})).filter(([n]) => !n.startsWith('@blis/')));
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'blis-pack-smoke', version: '0.0.0', private: true, dependencies: { ...peers, ...specs }, overrides: specs }, null, 2)}\n`,
  );
  say('npm install (all tarballs at once)');
  const install = await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project, env: npmEnv() });
  if (install.code !== 0) {
    problems.push(`npm install failed (exit ${install.code}):\n${install.stdout}${install.stderr}`);
    throw new Error('install');
  }

  const expected = declaredValueExports();
  const manifestVersions = Object.fromEntries(pkgs.map((p) => [p.name, p.manifest.version]));
  writeFileSync(join(project, 'expected.json'), JSON.stringify({ exports: Object.fromEntries(expected), versions: manifestVersions }));
  // Loads every package both ways inside the temp project and reports per package as JSON.
  writeFileSync(
    join(project, 'load.mjs'),
    `import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const require = createRequire(import.meta.url);
const { exports: expected } = JSON.parse(readFileSync(new URL('./expected.json', import.meta.url), 'utf8'));
const report = {};
for (const [spec, want] of Object.entries(expected)) {
  const r = (report[spec] = { problems: [] });
  const pkgName = spec.split('/').slice(0, 2).join('/');
  if (want === null) {
    // A data subpath (JSON): it must load both ways, to the installed file.
    try { await import(spec, { with: { type: 'json' } }); r.ESM = 'json'; } catch (e) { r.problems.push('import() threw: ' + e.message); }
    try { require(spec); r.CJS = 'json'; } catch (e) { r.problems.push('require() threw: ' + e.message); }
    continue;
  }
  const check = (how, mod) => {
    const keys = Object.keys(mod).filter((k) => k !== 'default' && k !== 'module.exports');
    r[how] = keys.length;
    const missing = want.filter((k) => !keys.includes(k));
    if (missing.length > 0) r.problems.push(how + ' lacks ' + missing.join(', '));
    if (want.length > 0 && keys.length === 0) r.problems.push(how + ' exposes no exports');
    const resolved = how === 'ESM' ? import.meta.resolve(spec) : require.resolve(spec);
    if (!resolved.includes('/node_modules/' + pkgName + '/dist/')) r.problems.push(how + ' resolved to ' + resolved + ', not the installed dist/');
  };
  try { check('ESM', await import(spec)); } catch (e) { r.problems.push('import() threw: ' + e.message); }
  try { check('CJS', require(spec)); } catch (e) { r.problems.push('require() threw: ' + e.message); }
}
process.stdout.write(JSON.stringify(report));
`,
  );
  const load = await run(process.execPath, ['load.mjs'], { cwd: project });
  if (load.code !== 0) problems.push(`loading the packages crashed:\n${load.stdout}${load.stderr}`);
  else {
    const report = JSON.parse(load.stdout);
    for (const [spec, r] of Object.entries(report)) {
      const declared = expected.get(spec);
      const note = declared?.length === 0 ? ' (source declares no runtime exports yet)' : '';
      if (r.problems.length > 0) {
        say(`✗ ${spec}: ${r.problems.join('; ')}`);
        problems.push(`${spec}: ${r.problems.join('; ')}`);
      } else if (declared === null) say(`✓ ${spec}: JSON, loads with import() and require()`);
      else say(`✓ ${spec}: import() ${r.ESM} exports, require() ${r.CJS} exports, ${declared.length} declared${note}`);
    }
  }

  const cli = pkgs.find((p) => p.name === '@blis/cli');
  if (cli?.manifest.bin?.blis) {
    const blis = join(project, 'node_modules', '.bin', 'blis');
    // The binary keeps V8's code cache of its bundle (src/launch/): here, in a folder of its own.
    const cacheDir = join(tmp, 'compile-cache');
    const env = { ...process.env, NODE_COMPILE_CACHE: cacheDir };
    delete env.BLIS_USE_DIST;
    delete env.NODE_DISABLE_COMPILE_CACHE;
    const expectOk = async (args, test, label) => {
      const r = await run(blis, args, { cwd: project, env });
      const why = r.code !== 0 ? `exit ${r.code}` : test(r.stdout);
      if (why) {
        problems.push(`blis ${args.join(' ')}: ${why}\n${r.stdout.slice(0, 2000)}${r.stderr.slice(0, 2000)}`);
        say(`✗ blis ${label}: ${why}`);
      } else say(`✓ blis ${label}`);
    };
    await expectOk(['--help'], (out) => (/Usage: blis/.test(out) ? '' : 'no "Usage: blis" on stdout'), '--help');
    const version = cli.manifest.version;
    await expectOk(['--version'], (out) => (out.trim() === version ? '' : `printed ${JSON.stringify(out.trim())}, package.json says ${version}`), '--version');
    await expectOk(
      ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '20', '--rate', '10'],
      (out) => {
        try {
          JSON.parse(out);
          return '';
        } catch (e) {
          return `stdout is not JSON (${e.message})`;
        }
      },
      'run (20 requests, JSON on stdout)',
    );
    // Through the built Node host module (`#host-files` in dist): a spec read from a file.
    writeFileSync(
      join(project, 'spec.yaml'),
      'version: "2"\nseed: 5\naggregate_rate: 10\nnum_requests: 10\nclients:\n  - id: a\n    rate_fraction: 1\n    arrival: { process: poisson }\n' +
        '    input_distribution: { type: constant, params: { value: 100 } }\n    output_distribution: { type: constant, params: { value: 10 } }\n',
    );
    await expectOk(
      ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--workload-spec', 'spec.yaml'],
      (out) => (JSON.parse(out).completed_requests === 10 ? '' : 'did not complete the 10 requests of spec.yaml'),
      'run --workload-spec spec.yaml (file read through dist/host/files.js)',
    );
    await smokeCodeCacheAndImports(project, cacheDir, expectOk);
  }
  await browserBundleOfInstalled(project);
} catch (e) {
  if (e.message !== 'install') problems.push(String(e.stack ?? e));
} finally {
  if (keep) say(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}

if (problems.length > 0) {
  process.stderr.write(`\npack smoke FAILED:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
  process.exit(1);
}
say(`\npack smoke passed: ${pkgs.length} packages installed from tarballs, every subpath loaded as ESM and CJS`);
