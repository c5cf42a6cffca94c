/**
 * The watchdog thread's whole program, as text for `new Worker(..., { eval: true })`: no file to
 * find beside the bundle or under tsx, and nothing a bundler could rewrite. It polls the shared
 * cell ([start of the armed work in epoch ms, or 0; its limit in ms]); past the limit it connects
 * to the main thread's inspector and has it run `globalThis[name]()`, which reports and exits.
 * The inspector's messages reach a busy main thread through V8 interrupts: the only way into a
 * thread that is stuck in a loop, short of killing the process without a word.
 */
export const WATCHDOG_THREAD_SOURCE = `
const { workerData } = require('node:worker_threads');
const cell = new Float64Array(workerData.cell);
let fired = false;
setInterval(() => {
  const start = cell[0];
  if (fired || !(start > 0) || Date.now() - start <= cell[1]) return;
  fired = true;
  const session = new (require('node:inspector').Session)();
  session.connectToMainThread();
  session.post('Runtime.evaluate', { expression: 'globalThis[' + JSON.stringify(workerData.handler) + ']()' });
}, workerData.pollMs);
`;
