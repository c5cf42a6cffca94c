// The `blis` binary's launcher (dist/cli.cjs; bin/blis.js requires it, dist/cli.js is a stub
// for `node dist/cli.js`). The whole CLI is one CommonJS bundle beside it (dist/blis.cjs), run
// with V8's code cache (load-bundle.ts). CommonJS, and nothing else loaded, because an ES
// module entry and its imports of Node's built-ins cost a start-up some 10 ms more.
import { join } from 'node:path';
import { commandOf } from './code-cache.js';
import { loadBundle } from './load-bundle.js';

const args = process.argv.slice(2);
const command = commandOf(args);
const loadCli = () => {
  loadBundle(join(__dirname, 'blis.cjs'), command, 'exit');
};
if (command === 'evaluate') {
  // Required here, not imported: what they load (node:worker_threads, node:os) would cost every
  // other command's start-up some 2 ms.
  const { startEvaluate } = require('./early-sandbox.js') as typeof import('./early-sandbox.js');
  startEvaluate(args, join(__dirname, 'evaluate-sandbox-thread.cjs'));
  const { evaluateFromLauncher } = require('./launcher-evaluate.js') as typeof import('./launcher-evaluate.js');
  if (!evaluateFromLauncher(args, loadCli)) loadCli();
} else loadCli();
