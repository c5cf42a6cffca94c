/** One line of a stream, or the fact that a line was longer than the limit (its bytes are dropped). */
export type BoundedLine = { text: string } | { tooLong: true };

/**
 * Splits a byte stream into lines (`\n`, with a trailing `\r` dropped) holding at most
 * `maxBytes` of one line in memory. readline buffers a line whatever its length, so a caller
 * that never sends a newline would grow the process without bound; here a line past the limit
 * is reported once and skipped to its newline.
 */
export async function* boundedLines(input: AsyncIterable<Buffer | string>, maxBytes: number): AsyncGenerator<BoundedLine> {
  let parts: Buffer[] = [];
  let held = 0;
  let skipping = false;
  for await (const raw of input) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      const end = nl < 0 ? chunk.length : nl;
      if (!skipping) {
        if (held + (end - from) > maxBytes) {
          skipping = true;
          parts = [];
          held = 0;
        } else if (end > from) {
          parts.push(chunk.subarray(from, end));
          held += end - from;
        }
      }
      if (nl < 0) break;
      yield skipping ? { tooLong: true } : { text: lineText(parts) };
      skipping = false;
      parts = [];
      held = 0;
      from = nl + 1;
    }
  }
  if (skipping) yield { tooLong: true };
  else if (held > 0) yield { text: lineText(parts) };
}

function lineText(parts: Buffer[]): string {
  const text = Buffer.concat(parts).toString('utf8');
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}
