// The `blis` binary's launcher (dist/cli.cjs; bin/blis.js requires it, dist/cli.js is a stub
// for `node dist/cli.js`). The whole CLI is one CommonJS bundle beside it (dist/blis.cjs), run
// with V8's code cache (load-bundle.ts). CommonJS, and nothing else loaded, because an ES
// module entry and its imports of Node's built-ins cost a start-up some 10 ms more.
import { join } from 'node:path';
import { commandOf } from './code-cache.js';
import { startEarlySandbox } from './early-sandbox.js';
import { loadBundle } from './load-bundle.js';

const command = commandOf(process.argv.slice(2));
// `blis evaluate` runs a candidate's code in a thread: start it now, so that it loads on another
// core while this thread loads the CLI and reads the request.
if (command === 'evaluate') startEarlySandbox(join(__dirname, 'evaluate-sandbox-thread.cjs'));
loadBundle(join(__dirname, 'blis.cjs'), command, 'exit');
