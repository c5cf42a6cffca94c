import * as nodeModule from 'node:module';

// Node 22.1+ can keep the compiled code of the modules it loads on disk, which makes every later
// start-up skip most of the parsing; Node 20 has no such cache (the call is absent there). It
// must run before the program's modules load, hence main.js is imported below, not statically.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// A reader that stops early (`blis run ... | head`) closes the pipe: that is the reader's
// choice, not a failure, so end quietly instead of throwing EPIPE from the write.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

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
