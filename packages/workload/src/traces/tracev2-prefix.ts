import { splitCsv } from './line-reader.js';
import type { Lines } from './text-lines.js';

/**
 * How a TraceV2 row's prefix columns turn into a prompt, as BLIS reads them. `input_tokens` is
 * the request's own tokens; a row with a `prefix_group` is preceded by that group's shared
 * prefix, one token sequence per group sized by the first row of the group (in file order) with
 * a positive `prefix_length`. Every row of the group gets that same prefix, even one whose own
 * `prefix_length` is 0 or different; `prefix_length` without a group means nothing.
 */
export function readPrefixGroupLengths(lines: Lines, groupCol: number, lengthCol: number): Map<string, number> {
  const out = new Map<string, number>();
  try {
    lines.next(); // column names
    for (let line = lines.next(); line !== undefined; line = lines.next()) {
      // Malformed rows are left for the main pass to report, with their line numbers.
      const c = splitCsv(line);
      const group = c[groupCol];
      if (group === undefined || group === '' || out.has(group)) continue;
      const len = Number(c[lengthCol]);
      if (Number.isInteger(len) && len > 0) out.set(group, len);
    }
  } finally {
    lines.close();
  }
  return out;
}

/**
 * The writer's side of the same rule: remembers each group's prefix length as first written, so
 * that every later row of the group is written against that prefix and reads back at its own
 * prompt length.
 */
export class PrefixColumnWriter {
  private readonly groups = new Map<string, number>();

  /** The `prefix_length` and `input_tokens` columns for a prompt of `inputTokens` tokens. */
  columns(prefixGroup: string, prefixLength: number, inputTokens: number): { prefixLength: number; ownTokens: number } {
    if (prefixGroup === '') return { prefixLength: 0, ownTokens: inputTokens };
    let shared = this.groups.get(prefixGroup);
    if (shared === undefined && prefixLength > 0) {
      shared = prefixLength;
      this.groups.set(prefixGroup, shared);
    }
    if (shared === undefined) return { prefixLength: 0, ownTokens: inputTokens };
    // Never written by our generators (a group's prompts all start with its prefix); a reader
    // would prepend the prefix regardless, so no row can say "shorter than the prefix".
    if (inputTokens < shared) throw new Error(`prompt of ${inputTokens} tokens is shorter than the ${shared}-token prefix of group "${prefixGroup}"`);
    return { prefixLength: shared, ownTokens: inputTokens - shared };
  }
}
