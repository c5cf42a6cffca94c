import type { Plugin } from 'esbuild';
import type { Options } from 'tsup';

// The `blis` binary's builds, shared by tsup.config.ts (into dist/) and the test suite's global
// set-up (tools/test-support/cli-bundle.ts), which builds the same bundle once per test run so
// that CLI tests start the binary users run instead of transpiling the sources in every process.

// What the binary's bundles carry inside (the @blis/* packages from their sources, the small
// pure-JS dependencies); the rest of its dependencies stay external.
const BUNDLED = [/^@blis\//, 'zod', 'yaml', 'commander', 'pure-rand'];

/** Sources through their `@blis/source` condition; less text to parse at a start-up without a
 * cache. Names are kept, so stack traces still read; the source maps give the lines. */
function bundleOptions(options: { conditions?: string[]; minifyWhitespace?: boolean; minifySyntax?: boolean }): void {
  options.conditions = ['@blis/source'];
  options.minifyWhitespace = true;
  options.minifySyntax = true;
}

/**
 * commander requires `node:child_process` when it loads, for the executable subcommands `blis`
 * never has: loading that built-in (net, streams, ...) cost every command's start-up about 4 ms.
 * In the bundle, commander gets a stand-in that loads it on first use instead.
 */
const lazyChildProcess: Plugin = {
  name: 'blis-lazy-child-process',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'blis-lazy-builtin' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'blis-lazy-builtin' }, () => ({
      contents: "let m;\nmodule.exports = new Proxy({}, { get: (_, key) => (m ??= require('node:child_process'))[key] });\n",
      loader: 'js',
    }));
  },
};

/** The binary's builds into `outDir` (relative to packages/cli). */
export function binaryBuilds(outDir = 'dist'): Options[] {
  const builds: Options[] = [
    // The `blis` binary: one CommonJS file (dist/blis.cjs) with the @blis/* workspace packages
    // (from their sources) and the small pure-JS dependencies inside, run by the launcher
    // (dist/cli.cjs) through V8's code cache (src/launch/). A script compiled that way can be
    // cached, an ES module on Node 20 cannot; one file means one cache. esbuild (a native binary),
    // tinypool (which starts workers from its own files) and the rest stay external, imported
    // through the launcher's loader (importModule in @blis/adapters). The evaluation sandbox's
    // thread is built the same way: its code one CommonJS file (dist/evaluate-sandbox.cjs), run
    // by its own small entry (dist/evaluate-sandbox-thread.cjs) through the code cache.
    {
      entry: {
        blis: 'src/cli.ts',
        cli: 'src/launch/launcher.ts',
        'evaluate-sandbox': '../adapters/src/evaluate/sandbox/sandbox-serve.ts',
        'evaluate-sandbox-thread': 'src/launch/sandbox-thread-entry.ts',
      },
      format: ['cjs'],
      dts: false,
      sourcemap: true,
      clean: false,
      target: 'node20',
      platform: 'node',
      splitting: false,
      treeshake: false,
      // import.meta.url (policy-module.ts resolves candidates' imports from it) from __filename.
      shims: true,
      noExternal: BUNDLED,
      esbuildOptions: bundleOptions,
      esbuildPlugins: [lazyChildProcess],
      // tsup's own plugin would take `node:` built-ins before lazyChildProcess sees them; esbuild
      // leaves them external all the same, `node:` kept.
      removeNodeProtocol: false,
    },
    // dist/cli.js, for `node dist/cli.js`: a module that requires the launcher; and
    // dist/evaluate-sandbox-thread.js, the name the bundle's sandbox starts its threads from
    // (adapters' sandbox-file.ts), a module that requires the thread's CommonJS entry.
    {
      entry: { cli: 'src/launch/entry.ts', 'evaluate-sandbox-thread': 'src/launch/sandbox-thread-stub.ts' },
      format: ['esm'],
      dts: false,
      sourcemap: false,
      clean: false,
      target: 'node20',
      platform: 'node',
      shims: false,
    },
    // tinypool starts each sweep worker from `./sweep-worker.js` beside the bundle (adapters'
    // worker-file.ts).
    {
      entry: { 'sweep-worker': '../adapters/src/sweep/sweep-worker.ts' },
      format: ['esm'],
      dts: false,
      sourcemap: true,
      clean: false,
      target: 'node20',
      platform: 'node',
      treeshake: false,
      shims: false,
      noExternal: BUNDLED,
      // commander is CommonJS and requires Node built-ins: give the ESM chunks a real `require`.
      banner: { js: "import { createRequire as __blisCreateRequire } from 'node:module';\nconst require = __blisCreateRequire(import.meta.url);" },
      esbuildOptions: bundleOptions,
    },
  ];
  return builds.map((o) => ({ ...o, outDir }));
}
