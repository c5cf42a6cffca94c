import { libraryConfig } from '../../tools/tsup.base.js';

export default libraryConfig({ entry: ['src/index.ts'] });
