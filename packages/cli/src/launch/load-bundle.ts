import * as nodeModule from 'node:module';
import { runWithCodeCache } from './code-cache.js';

// How the binary's entries (the launcher, the evaluation sandbox's thread) load their CommonJS
// bundle: through V8's code cache, Node's own on Node 22.1+ (`module.enableCompileCache`), ours
// on Node 20 (code-cache.ts).

/** A loaded bundle: its exports, and how to write its cache now (see runWithCodeCache). */
export interface LoadedBundle {
  exports: unknown;
  saveCache: () => void;
}

type NodeModuleCache = { enableCompileCache?: () => unknown; flushCompileCache?: () => void };

/**
 * Loads `bundle`, cached under `command`. `saveAt: 'exit'` leaves the cache when the process
 * ends with code 0; `'call'` only when `saveCache` is called (a worker thread, which may be
 * ended without an exit event).
 */
export function loadBundle(bundle: string, command: string, saveAt: 'exit' | 'call'): LoadedBundle {
  // A script compiled by `vm.Script` has no loader for `import()` on Node 20: the bundle imports
  // its external modules (tinypool, esbuild, vega, users' policy modules) through this one
  // (`importModule` in @blis/adapters). Specifiers resolve from this folder, as the bundle's would.
  (globalThis as { __blisImport?: (s: string) => Promise<unknown> }).__blisImport = (specifier) => import(specifier);
  const { enableCompileCache, flushCompileCache } = nodeModule as NodeModuleCache;
  if (enableCompileCache === undefined) return runWithCodeCache(bundle, command, process.env, saveAt);
  try {
    enableCompileCache();
  } catch {
    // Without the cache the bundle loads all the same, only slower.
  }
  const exports: unknown = nodeModule.createRequire(bundle)(bundle);
  return {
    exports,
    saveCache: () => {
      try {
        flushCompileCache?.();
      } catch {
        // A cache that cannot be written costs the next start-up its speed, nothing else.
      }
    },
  };
}
