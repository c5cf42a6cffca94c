#!/usr/bin/env node
// `pnpm check:browser`: the core packages must build for the browser (DESIGN.md, issue 20).
//  1. Every subpath of engine, kvcache, latency, policies, workload, trace, cluster and report (`.`,
//     `./testing`, cluster's `./internal`) is bundled from its sources with esbuild, `platform: 'browser'` and the
//     conditions a browser bundler uses (`browser`, plus `@blis/source` to read sources), npm
//     dependencies included. Any Node built-in reached on the way fails the check, naming the
//     chain of imports that leads to it.
//  2. `simulate` from @blis/cluster, bundled that way, runs in a bare JavaScript context that has
//     only what a browser has (no process, Buffer, require or file system): a synthetic workload,
//     an inline WorkloadSpec and two routed instances must give the same results as the
//     Node bundle, and a trace-file workload must fail with FileAccessUnavailable.
// Runs from sources; needs no build. esbuild comes with tsup (a root devDependency).
import { builtinModules, createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { runInNewContext } from 'node:vm';
import { publishablePackages, repoRoot } from './lib/packages.mjs';

const CORE = ['engine', 'kvcache', 'latency', 'policies', 'workload', 'trace', 'cluster', 'report'];
const esbuild = createRequire(createRequire(import.meta.url).resolve('tsup'))('esbuild');
const say = (s) => process.stdout.write(`${s}\n`);
const problems = [];

const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const isBuiltin = (spec) => spec.startsWith('node:') || builtins.has(spec) || builtins.has(spec.split('/')[0]);

/** Records every Node built-in import (and who imports it) instead of failing on the first. */
function builtinRecorder(hits) {
  return {
    name: 'record-node-builtins',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point' || !isBuiltin(args.path)) return undefined;
        hits.push({ spec: args.path, importer: relative(repoRoot, args.importer) });
        return { path: args.path, external: true };
      });
    },
  };
}

/** The import chain from the entry to `target`, from esbuild's metafile (breadth-first). */
function chainTo(metafile, entry, target) {
  const prev = new Map([[entry, null]]);
  const queue = [entry];
  while (queue.length > 0) {
    const at = queue.shift();
    if (at === target) break;
    for (const imp of metafile.inputs[at]?.imports ?? []) {
      if (imp.external || prev.has(imp.path)) continue;
      prev.set(imp.path, at);
      queue.push(imp.path);
    }
  }
  if (!prev.has(target)) return [target];
  const chain = [];
  for (let at = target; at !== null; at = prev.get(at)) chain.unshift(at);
  return chain;
}

const common = { bundle: true, write: false, metafile: true, logLevel: 'silent', absWorkingDir: repoRoot, target: 'es2022' };
const browser = { ...common, platform: 'browser', conditions: ['@blis/source', 'browser'] };

/** Bundles one source entry for the browser; problems name the chain to each built-in. */
async function checkEntry(name, source) {
  const hits = [];
  const entry = relative(repoRoot, source);
  try {
    const r = await esbuild.build({ ...browser, entryPoints: [source], format: 'esm', plugins: [builtinRecorder(hits)] });
    for (const h of hits) problems.push(`${name}: Node built-in "${h.spec}" reached by ${[...chainTo(r.metafile, entry, h.importer), h.spec].join(' -> ')}`);
    const kib = (r.outputFiles[0].contents.length / 1024).toFixed(0);
    say(`${hits.length === 0 ? '✓' : '✗'} ${name} (${entry}): ${Object.keys(r.metafile.inputs).length} modules, ${kib} KiB${hits.length > 0 ? `, ${hits.length} Node built-in import(s)` : ''}`);
  } catch (e) {
    problems.push(`${name}: esbuild failed: ${(e.errors ?? []).map((m) => `${m.location?.file ?? ''}:${m.location?.line ?? ''} ${m.text}`).join('; ') || e.message}`);
    say(`✗ ${name}: esbuild failed`);
  }
}

for (const pkg of publishablePackages().filter((p) => CORE.includes(p.dir.split(/[\\/]/).pop()))) {
  for (const [sub, target] of Object.entries(pkg.manifest.exports ?? {})) {
    const src = target && typeof target === 'object' ? target['@blis/source'] : undefined;
    if (typeof src === 'string' && src.endsWith('.ts')) await checkEntry(sub === '.' ? pkg.name : `${pkg.name}${sub.slice(1)}`, join(pkg.dir, src));
  }
}

// --- 2. simulate() in a browser-like context -------------------------------------------------
const SCENARIOS = {
  synthetic: { seed: 7, numInstances: 1, model: 'qwen/qwen3-14b', workload: { kind: 'synthetic', rate: 20, numRequests: 40, promptTokens: 300, outputTokens: 40 } },
  'inline spec, 2 instances': {
    seed: 11,
    numInstances: 2,
    model: 'meta-llama/llama-3.1-8b-instruct',
    routing: { policy: 'weighted', scorers: [{ name: 'queue-depth', weight: 1 }] },
    workload: {
      kind: 'spec',
      spec: {
        version: '2',
        seed: 11,
        aggregate_rate: 30,
        num_requests: 60,
        clients: [
          {
            id: 'chat',
            rate_fraction: 1,
            arrival: { process: 'poisson' },
            input_distribution: { type: 'gaussian', params: { mean: 400, std_dev: 100, min: 10, max: 2000 } },
            output_distribution: { type: 'exponential', params: { mean: 60 } },
          },
        ],
      },
    },
  },
};
const FILE_SCENARIO = { seed: 1, numInstances: 1, model: 'qwen/qwen3-14b', workload: { kind: 'trace', path: 'trace.csv', format: 'azure' } };

/** What a browser page's global scope offers that the simulator could plausibly touch. */
const browserGlobals = () => ({
  console,
  TextEncoder,
  TextDecoder,
  URL,
  URLSearchParams,
  structuredClone,
  queueMicrotask,
  setTimeout,
  clearTimeout,
  performance,
  crypto: globalThis.crypto,
});

const runner = `
export { simulate } from '@blis/cluster';
`;
async function bundleSimulate(opts) {
  const r = await esbuild.build({ ...opts, stdin: { contents: runner, resolveDir: join(repoRoot, 'packages/cluster'), loader: 'ts' }, format: 'iife', globalName: 'blis' });
  return r.outputFiles[0].text;
}

try {
  const hits = [];
  const browserCode = await bundleSimulate({ ...browser, plugins: [builtinRecorder(hits)] });
  if (hits.length > 0) throw new Error(`the simulate bundle imports ${hits.map((h) => `${h.spec} (from ${h.importer})`).join(', ')}`);
  const nodeCode = await bundleSimulate({ ...common, platform: 'node', conditions: ['@blis/source'] });
  const ctx = browserGlobals();
  runInNewContext(`${browserCode}\nglobalThis.blis = blis;`, ctx, { filename: 'blis-browser.js' });
  for (const leaked of ['process', 'Buffer', 'require', 'global', '__dirname']) if (leaked in ctx) throw new Error(`the browser-like context has ${leaked}`);
  const nodeCtx = { ...browserGlobals(), process, Buffer, require: createRequire(import.meta.url) };
  runInNewContext(`${nodeCode}\nglobalThis.blis = blis;`, nodeCtx, { filename: 'blis-node.js' });
  for (const [label, config] of Object.entries(SCENARIOS)) {
    // The configs cross into the context as JSON: objects from this realm would fail zod's
    // prototype checks there, as they never would in a page.
    const json = JSON.stringify(config);
    const inBrowser = runInNewContext(`JSON.stringify(blis.simulate(JSON.parse(${JSON.stringify(json)})))`, ctx);
    const inNode = runInNewContext(`JSON.stringify(blis.simulate(JSON.parse(${JSON.stringify(json)})))`, nodeCtx);
    const done = JSON.parse(inBrowser).completed_requests;
    if (inBrowser !== inNode) problems.push(`simulate (${label}): the browser bundle's result differs from the Node bundle's`);
    else if (!(done > 0)) problems.push(`simulate (${label}): completed_requests is ${done}`);
    else say(`✓ simulate in a browser-like context (${label}): ${done} requests completed, result identical to Node's`);
  }
  const refused = runInNewContext(
    `(() => { try { blis.simulate(${JSON.stringify(FILE_SCENARIO)}); return 'no error'; } catch (e) { return e.name + ': ' + e.message; } })()`,
    ctx,
  );
  if (!/FileAccessUnavailable|not available in the browser/.test(refused)) problems.push(`simulate (trace file): expected FileAccessUnavailable, got ${refused}`);
  else say(`✓ simulate with a trace file in the browser: ${refused.split('\n')[0].slice(0, 160)}`);
} catch (e) {
  problems.push(`simulate in a browser-like context: ${e.stack ?? e}`);
  say('✗ simulate in a browser-like context');
}

if (problems.length > 0) {
  process.stderr.write(`\nbrowser bundle check FAILED:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
  process.exit(1);
}
say(`\nbrowser bundle check passed: ${CORE.length} core packages bundle for the browser with no Node built-in`);
