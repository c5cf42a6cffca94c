import { libraryConfig } from '../../tools/tsup.base.js';

// `testing` is the ./testing subpath (config arbitraries, invariant checkers); fast-check stays external as a peer.
// `internal` is the ./internal subpath: the engine's pieces, outside semver (src/internal.ts says why).
export default libraryConfig({ entry: { index: 'src/index.ts', internal: 'src/internal.ts', testing: 'src/testing/index.ts' } });
