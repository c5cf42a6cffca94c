import { main } from './main.js';

// The binary's entry: run, then exit with the code main() decided (stdout is flushed first).
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`blis: internal error: ${String((e as Error)?.stack ?? e)}\n`);
    process.exitCode = 1;
  },
);
