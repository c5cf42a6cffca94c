// The CLI program: `dist/blis.cjs` in a build (started by launch/launcher.ts), run directly from
// the sources in a checkout (bin/blis.js).

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
