// The `blis` binary's launcher (dist/cli.cjs; bin/blis.js requires it, dist/cli.js is a stub
// for `node dist/cli.js`). The whole CLI is one CommonJS bundle beside it (dist/blis.cjs), run
// with V8's code cache (load-bundle.ts). CommonJS, and nothing else loaded, because an ES
// module entry and its imports of Node's built-ins cost a start-up some 10 ms more.
import { join } from 'node:path';
import { commandOf } from './code-cache.js';
import { mayNeedSandbox, startEarlySandbox } from './early-sandbox.js';
import { loadBundle } from './load-bundle.js';
import { evaluatesStdinOnce, lendStdinHead, readStdinHead } from './stdin-head.js';

const args = process.argv.slice(2);
const command = commandOf(args);
if (command === 'evaluate') {
  // A one-shot request on stdin is read now, to know whether it can need the thread a candidate's
  // code runs in; the command reads on from what was read. A thread that may be needed starts
  // now, and loads on another core while this thread loads the CLI.
  const head = evaluatesStdinOnce(args) ? readStdinHead() : undefined;
  if (head !== undefined) lendStdinHead(head);
  if (mayNeedSandbox(head) && !args.includes('--help') && !args.includes('-h')) startEarlySandbox(join(__dirname, 'evaluate-sandbox-thread.cjs'));
}
loadBundle(join(__dirname, 'blis.cjs'), command, 'exit');
