import { config } from 'zod';

// zod compiles a fast parser (through `new Function`) for each object schema the first time it
// parses with it: worth it in a process that parses input after input, a cost in one that
// parses a few inputs and ends. Measured on the binary (interleaved, Node 20): a 1,000-request
// `blis run` 2 ms less, the Azure code replay on 8 instances 5-9 ms, the Mooncake trace replay
// (3,993 rows, each parsed) 25 ms, a cold one-shot `blis evaluate` of a candidate module 5 ms
// (its thread, see sandbox-thread-entry.ts). A `--serve` child keeps them: its first requests
// pay for them (the GEPA example's eleven-request loop ran 15 ms faster without), and a search
// of thousands of requests re-parses every request and its scenarios. The answers are zod's
// either way: the fast parser is its own shortcut for what the schema already checks.

/** Whether `blis <argv>` parses its inputs once and ends: every command but the long-lived ones. */
export function parsesOnce(argv: readonly string[]): boolean {
  const command = argv.find((a) => !a.startsWith('-'));
  return !(argv.includes('--serve') || command === 'worker' || command === 'serve-sim');
}

/** Turns zod's compiled parsers off for a command that parses once; must run before the command's schemas are built. */
export function jitlessWhenParsingOnce(argv: readonly string[]): void {
  if (parsesOnce(argv)) config({ jitless: true });
}
