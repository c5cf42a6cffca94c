import { libraryConfig } from '../../tools/tsup.base.js';

// The sweep worker is an entry of its own: tinypool loads it by file in each worker thread
// (dist/sweep-worker.js, beside dist/index.js; see src/sweep/worker-file.ts).
export default libraryConfig({ entry: { index: 'src/index.ts', 'sweep-worker': 'src/sweep/sweep-worker.ts' } });
