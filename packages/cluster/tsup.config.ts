import { libraryConfig } from '../../tools/tsup.base.js';

// `testing` is the ./testing subpath (config arbitraries, invariant checkers); fast-check stays external as a peer.
export default libraryConfig({ entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' } });
