import { libraryConfig } from '../../tools/tsup.base.js';

// The sweep worker and the evaluation sandbox's thread are entries of their own: each is loaded
// by file in a worker thread (dist/sweep-worker.js and dist/evaluate-sandbox-thread.js, beside
// dist/index.js; see src/sweep/worker-file.ts and src/evaluate/sandbox/sandbox-file.ts).
// candidate-compile is the `blis` launcher's: a subpath that brings in nothing else.
export default libraryConfig({
  entry: { index: 'src/index.ts', internal: 'src/internal.ts', 'candidate-compile': 'src/candidate-compile.ts', 'sweep-worker': 'src/sweep/sweep-worker.ts', 'evaluate-sandbox-thread': 'src/evaluate/sandbox/sandbox-thread.ts' },
});
