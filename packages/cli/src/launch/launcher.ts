// The `blis` binary's launcher (dist/cli.cjs; bin/blis.js requires it, dist/cli.js is a stub
// for `node dist/cli.js`). The whole CLI is one CommonJS bundle beside it (dist/blis.cjs), run
// with V8's code cache: Node's own on Node 22.1+, ours on Node 20 (code-cache.ts). CommonJS,
// and nothing else loaded, because an ES module entry and its imports of Node's built-ins cost
// a start-up some 10 ms more.
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { commandOf, runWithCodeCache } from './code-cache.js';

const bundle = join(__dirname, 'blis.cjs');

// A script compiled by `vm.Script` has no loader for `import()` on Node 20: the bundle imports
// its external modules (tinypool, esbuild, vega, users' policy modules) through this one
// (`importModule` in @blis/adapters). Specifiers resolve from this folder, as the bundle's would.
(globalThis as { __blisImport?: (s: string) => Promise<unknown> }).__blisImport = (specifier) => import(specifier);

const enableCompileCache = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
if (enableCompileCache !== undefined) {
  enableCompileCache();
  nodeModule.createRequire(bundle)(bundle);
} else {
  runWithCodeCache(bundle, commandOf(process.argv.slice(2)));
}
