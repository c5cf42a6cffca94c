import { rmSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { libraryConfig } from '../../tools/tsup.base.js';

// Two builds share dist/ and tsup runs them at once, so neither may clean it: clear it here, once.
rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });

export default [
  // The library (`import { main } from '@blis/cli'`): ESM + CJS + declarations, @blis/* external.
  { ...libraryConfig({ entry: ['src/index.ts'] }), clean: false },
  // The `blis` binary: the @blis/* workspace packages (from their sources) and the small pure-JS
  // dependencies are bundled in, so a start-up reads a few files instead of hundreds (zod alone
  // is about a hundred modules: it loads in half the time bundled). Splitting puts each command
  // body (a dynamic import in main.ts) in a chunk of its own, loaded only when that command
  // runs. esbuild (a native binary) and tinypool (which starts workers from its own files) stay
  // external; both are dependencies of this package.
  defineConfig({
    entry: {
      cli: 'src/cli.ts',
      // The sweep runner (bundled above) starts its worker threads from `./sweep-worker.js`
      // beside itself (adapters' worker-file.ts): the worker is an entry of this build too.
      'sweep-worker': '../adapters/src/sweep/sweep-worker.ts',
    },
    format: ['esm'],
    dts: false,
    sourcemap: true,
    clean: false,
    target: 'node20',
    platform: 'node',
    splitting: true,
    treeshake: false,
    shims: false,
    noExternal: [/^@blis\//, 'zod', 'yaml', 'commander', 'pure-rand'],
    // commander is CommonJS and requires Node built-ins: give the ESM chunks a real `require`.
    banner: { js: "import { createRequire as __blisCreateRequire } from 'node:module';\nconst require = __blisCreateRequire(import.meta.url);" },
    esbuildOptions(options) {
      options.conditions = ['@blis/source'];
      // Less text to parse at every start-up (Node 20 has no compile cache). Names are kept, so
      // stack traces still read; the source maps give the lines.
      options.minifyWhitespace = true;
      options.minifySyntax = true;
    },
  }),
];
