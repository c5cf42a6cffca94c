// The CLI program: `dist/blis.cjs` in a build (started by launch/launcher.ts), run directly from
// the sources in a checkout (bin/blis.js).

import { quietOnEpipe } from './launch/quiet-epipe.js';
import { jitlessWhenParsingOnce } from './launch/zod-jitless.js';

quietOnEpipe();
// Before main.js loads: the command's schemas are built as its modules load.
jitlessWhenParsingOnce(process.argv.slice(2));

// The binary's entry: run, then exit with the code main() decided (stdout is flushed first).
import('./main.js')
  .then(({ main }) => main(process.argv.slice(2)))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`blis: internal error: ${String((e as Error)?.stack ?? e)}\n`);
      process.exitCode = 1;
    },
  );
