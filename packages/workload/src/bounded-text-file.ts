import { fileSize, readFileSync } from '#host-files';
import type { InputIssue } from './errors.js';
import { formatBytes, looksBinary } from './text-excerpt.js';

/** How a whole-file read is bounded and what the file is called in its messages. */
export interface BoundedTextOptions {
  /** Largest file read, in bytes; a larger one is refused before a byte of it is loaded. */
  readonly maxBytes: number;
  /** What the file is, without an article (messages say `a readable …`): `results JSON file`. */
  readonly what: string;
  /** Read past NUL bytes at the end (a crash can leave them after the last write). */
  readonly trailingNulsAllowed?: boolean;
}

export type BoundedTextResult = { ok: true; text: string } | { ok: false; issue: InputIssue };

/**
 * Reads a text file that is parsed whole (JSON, a journal): its size is checked first, so an
 * oversized file costs a `stat`, not the machine's memory, and binary data is refused rather than
 * handed to a parser whose message would quote it.
 */
export function readBoundedText(path: string, opts: BoundedTextOptions): BoundedTextResult {
  let text: string;
  try {
    const size = fileSize(path);
    if (size > opts.maxBytes) return { ok: false, issue: { file: path, expected: `a ${opts.what} of at most ${formatBytes(opts.maxBytes)}`, found: sizeText(size) } };
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return { ok: false, issue: { file: path, expected: `a readable ${opts.what}`, found: (e as NodeJS.ErrnoException).code ?? String(e) } };
  }
  const sniffed = opts.trailingNulsAllowed === true ? text.replace(/\0+$/, '') : text;
  if (looksBinary(sniffed)) return { ok: false, issue: { file: path, expected: `a ${opts.what} (text)`, found: 'binary data' } };
  return { ok: true, text };
}

/** `65 MiB (68157440 bytes)`: rounded, then exact, since a file just past a limit rounds to it. */
function sizeText(bytes: number): string {
  const rounded = formatBytes(bytes);
  return rounded.endsWith(' bytes') ? rounded : `${rounded} (${bytes} bytes)`;
}
