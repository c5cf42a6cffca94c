import { pathToFileURL } from 'node:url';

/**
 * Where the sandbox thread's module lives. In a build, `evaluate-sandbox-thread.js` beside this
 * bundle (an entry of its own, like the sweep worker); from the sources (a workspace checkout
 * under tsx), the unpublished `dev/sandbox-thread-source.mjs`, which registers tsx in the thread
 * (Node 20 runs `--import` preloads on the main thread only) and then loads `sandbox-thread.ts`.
 */
export function sandboxThreadUrl(): URL {
  const here = typeof __filename === 'string' ? pathToFileURL(__filename).href : import.meta.url;
  return new URL(here.endsWith('.ts') ? '../../../dev/sandbox-thread-source.mjs' : './evaluate-sandbox-thread.js', here);
}
