import { rmSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { libraryConfig } from '../../tools/tsup.base.js';
import { binaryBuilds } from './tsup.binary.js';

// Several builds share dist/ and tsup runs them at once, so none may clean it: clear it here, once.
rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });

export default [
  // The library (`import { main } from '@blis/cli'`): ESM + CJS + declarations, @blis/* external.
  { ...libraryConfig({ entry: ['src/index.ts'] }), clean: false },
  ...binaryBuilds().map((o) => defineConfig(o)),
];
