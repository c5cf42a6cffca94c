// dist/evaluate-sandbox-thread.cjs: the `blis` binary's evaluation sandbox thread (see
// @blis/adapters' EvaluateSandbox). Its code is a CommonJS bundle of its own
// (dist/evaluate-sandbox.cjs), loaded as the launcher loads the CLI's, through V8's code cache;
// a module compiled from scratch cost every cold `blis evaluate` of a candidate module ~100 ms.
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { serveSandbox } from '@blis/adapters/internal';
import { loadBundle } from './load-bundle.js';

if (parentPort === null) throw new Error('evaluate-sandbox-thread runs in a worker thread');
// A thread started for one request (the launcher's, one-shot `blis evaluate`) turns zod's
// compiled parsers off as the CLI does (zod-jitless.ts). zod is inside the bundle, whose schemas
// are built as it loads: its config is set beforehand where zod keeps it, on globalThis.
const data = workerData as { parsesOnce?: unknown; compilesAhead?: unknown } | null;
if (data?.parsesOnce === true) {
  const g = globalThis as { __zod_globalConfig?: Record<string, unknown> };
  g.__zod_globalConfig = { ...g.__zod_globalConfig, jitless: true };
}
const bundle = loadBundle(join(__dirname, 'evaluate-sandbox.cjs'), 'evaluate-sandbox', 'call');
// The cache is written before the first good answer goes out (the parent may end this thread
// as soon as it has it), so that it holds the evaluation's functions too, not just the loading.
// A launcher that compiles the candidate itself (launcher-request.ts) says so: no esbuild here.
(bundle.exports as { serveSandbox: typeof serveSandbox }).serveSandbox(parentPort, {
  beforeAnswer: (response) => {
    if (response.status === 'ok') bundle.saveCache();
  },
  compilesAhead: data?.compilesAhead === true,
});
