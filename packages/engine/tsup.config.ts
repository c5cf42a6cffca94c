import { libraryConfig } from '../../tools/tsup.base.js';

export default libraryConfig({ entry: { index: 'src/index.ts', internal: 'src/internal.ts' } });
