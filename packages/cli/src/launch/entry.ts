// dist/cli.js: `node dist/cli.js ...` runs the launcher (dist/cli.cjs). The package is ESM, so
// a `.js` file is a module; it loads nothing but the launcher.
import { createRequire } from 'node:module';

createRequire(import.meta.url)('./cli.cjs');
