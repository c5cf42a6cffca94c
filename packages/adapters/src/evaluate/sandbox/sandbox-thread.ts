// The evaluation thread of a candidate's code (see evaluate-sandbox.ts), as this package's
// build starts it: dist/evaluate-sandbox-thread.js.
import { parentPort } from 'node:worker_threads';
import { serveSandbox } from './sandbox-serve.js';

if (parentPort === null) throw new Error('sandbox-thread runs in a worker thread');
serveSandbox(parentPort);
