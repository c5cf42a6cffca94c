import { pathToFileURL } from 'node:url';

/**
 * Where the worker module lives. In a build, `sweep-worker.js` beside this bundle (tsup emits it
 * as its own entry next to index.js; the CommonJS build points at the ESM worker too, tinypool
 * imports it either way). From the sources (a workspace checkout under tsx), the unpublished
 * `dev/sweep-worker-source.mjs`, which registers tsx in the worker thread (Node 20 runs the
 * `--import` preload on the main thread only) and then loads `sweep-worker.ts`.
 */
export function sweepWorkerUrl(): URL {
  const here = typeof __filename === 'string' ? pathToFileURL(__filename).href : import.meta.url;
  return new URL(here.endsWith('.ts') ? '../../dev/sweep-worker-source.mjs' : './sweep-worker.js', here);
}
