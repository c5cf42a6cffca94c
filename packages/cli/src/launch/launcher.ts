// The `blis` binary's entry (dist/cli.js). The whole CLI is one CommonJS bundle beside it
// (dist/blis.cjs), loaded with V8's code cache: Node's own on Node 22.1+, ours on Node 20
// (code-cache.ts). This file loads nothing else, so that it costs nothing to start.
import * as nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';
import { commandOf, runWithCodeCache } from './code-cache.js';

const bundle = fileURLToPath(new URL('./blis.cjs', import.meta.url));

// A script compiled by `vm.Script` has no loader for `import()` on Node 20: the bundle imports
// its external modules (tinypool, esbuild, vega, users' policy modules) through this one
// (`importModule` in @blis/adapters). Specifiers resolve from this folder, as the bundle's would.
(globalThis as { __blisImport?: (s: string) => Promise<unknown> }).__blisImport = (specifier) => import(specifier);

const enableCompileCache = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
if (enableCompileCache !== undefined) {
  enableCompileCache();
  nodeModule.createRequire(import.meta.url)(bundle);
} else {
  runWithCodeCache(bundle, commandOf(process.argv.slice(2)));
}
