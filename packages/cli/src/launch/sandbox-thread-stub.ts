// dist/evaluate-sandbox-thread.js: the binary's bundle finds its sandbox thread module by this
// name (adapters' sandbox-file.ts) and the package is ESM, so a `.js` file is a module; it loads
// nothing but the thread's CommonJS entry, which uses the code cache.
import { createRequire } from 'node:module';

createRequire(import.meta.url)('./evaluate-sandbox-thread.cjs');
