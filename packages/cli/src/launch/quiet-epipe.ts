// A reader that stops early (`blis run ... | head`) closes the pipe: that is the reader's choice,
// not a failure, so the process ends quietly instead of throwing EPIPE from a write.

let installed = false;

/** Ends the process (with its exit code so far) when stdout's reader has gone; once per process. */
export function quietOnEpipe(): void {
  if (installed) return;
  installed = true;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}
