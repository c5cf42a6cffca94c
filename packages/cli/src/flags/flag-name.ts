// Kept apart from flags.ts so that building the program (every command's --help) does not
// load zod, which only validating flag values needs.

/** commander's option key for a flag name: `max-num-seqs` -> `maxNumSeqs`. */
export function camel(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
