import { readRegularFileWithin } from '#host-files';
import type { InputIssue } from './errors.js';
import { formatBytes, looksBinary } from './text-excerpt.js';

/** How a whole-file read is bounded and what the file is called in its messages. */
export interface BoundedTextOptions {
  /** Largest file read, in bytes; a larger one is refused before a byte of it is loaded. */
  readonly maxBytes: number;
  /** What the file is, without an article (messages say `a readable …`): `results JSON file`. */
  readonly what: string;
  /** Drop NUL bytes at the end (a crash can leave them after the last write) before judging the text. */
  readonly trailingNulsAllowed?: boolean;
}

export type BoundedTextResult = { ok: true; text: string } | { ok: false; issue: InputIssue };

/**
 * The text of the regular file at `path` when it holds at most `maxBytes`, else its size (checked
 * with a `stat` first, so an oversized file is never loaded), what it is instead of a regular
 * file (a FIFO, /dev/zero, a directory: each would hang or fail the read), or the code of the
 * error that stopped the read. What every whole-file reader (YAML inputs, JSON results, the
 * sweep journal) words.
 */
export function readTextWithin(path: string, maxBytes: number): { text: string } | { size: number } | { kind: string } | { error: string } {
  try {
    const read = readRegularFileWithin(path, maxBytes);
    return 'bytes' in read ? { text: read.bytes.toString('utf8') } : read;
  } catch (e) {
    return { error: (e as NodeJS.ErrnoException).code ?? String(e) };
  }
}

/**
 * Reads a text file that is parsed whole (JSON, a journal): its size is checked first, so an
 * oversized file costs a `stat`, not the machine's memory, and binary data is refused rather than
 * handed to a parser whose message would quote it. With `trailingNulsAllowed`, the NUL bytes a
 * crash left at the end are dropped from the text returned.
 */
export function readBoundedText(path: string, opts: BoundedTextOptions): BoundedTextResult {
  const read = readTextWithin(path, opts.maxBytes);
  if ('size' in read) return { ok: false, issue: { file: path, expected: `a ${opts.what} of at most ${formatBytes(opts.maxBytes)}`, found: sizeText(read.size) } };
  if ('error' in read) return { ok: false, issue: { file: path, expected: `a readable ${opts.what}`, found: read.error } };
  if ('kind' in read) return { ok: false, issue: { file: path, expected: `a ${opts.what} (a regular file)`, found: read.kind } };
  const text = opts.trailingNulsAllowed === true ? read.text.replace(/\0+$/, '') : read.text;
  if (looksBinary(text)) return { ok: false, issue: { file: path, expected: `a ${opts.what} (text)`, found: 'binary data' } };
  return { ok: true, text };
}

/** `65 MiB (68157440 bytes)`: rounded, then exact, since a file just past a limit rounds to it. */
function sizeText(bytes: number): string {
  const rounded = formatBytes(bytes);
  return rounded.endsWith(' bytes') ? rounded : `${rounded} (${bytes} bytes)`;
}
