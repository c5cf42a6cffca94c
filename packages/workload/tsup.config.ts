import { libraryConfig } from '../../tools/tsup.base.js';

// `testing` is the ./testing subpath (fast-check arbitraries); fast-check stays external as a peer.
export default libraryConfig({ entry: { index: 'src/index.ts', internal: 'src/internal.ts', testing: 'src/testing/index.ts' }, hostFiles: true });
