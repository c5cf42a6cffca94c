import { config } from 'zod';

// zod compiles a fast parser (through `new Function`) for each object schema the first time it
// parses with it. The CLI builds hundreds of schemas and parses each a few times, so that
// compilation costs more than it saves, even in a long-lived process: measured on the binary
// (interleaved, Node 20), a 1,000-request `blis run` 2 ms less, the Azure code replay on 8
// instances 5-9 ms, the Mooncake trace replay (3,993 rows, each parsed) 25 ms, the GEPA example's
// eleven `evaluate --serve` requests 15 ms, a cold one-shot evaluation of a candidate module
// 5 ms (its thread, see sandbox-thread-entry.ts); a warm `--serve` answer the same. Only a
// schema parsing some 10^5 inputs or more gains from it (a 100,000-row JSONL trace: ~13 ms).
// The answers are zod's either way: the fast parser is its own shortcut for the same checks.

/** Turns zod's compiled parsers off; must run before the schemas are built (they read it then). */
export function zodWithoutCompiledParsers(): void {
  config({ jitless: true });
}
