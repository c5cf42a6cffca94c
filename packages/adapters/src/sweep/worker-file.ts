import { pathToFileURL } from 'node:url';

/**
 * Where the worker module lives: beside this module. From the sources (tsx), a bootstrap that
 * re-runs the `--import` preloads Node 20 does not run in worker threads, then loads
 * `sweep-worker.ts`; in a build, `sweep-worker.js` (tsup emits it as its own entry next to
 * index.js). The CommonJS build points at the ESM worker too: tinypool imports it either way.
 */
export function sweepWorkerUrl(): URL {
  const here = typeof __filename === 'string' ? pathToFileURL(__filename).href : import.meta.url;
  return new URL(here.endsWith('.ts') ? './sweep-worker-source.mjs' : './sweep-worker.js', here);
}
