/**
 * A ServeGen data directory as the converter reads it: its trace files' names (chunk-<id>-
 * trace.csv) in Go's sorted order, and each file's text. The caller owns the file system, so the
 * conversion itself runs anywhere (the CLI reads a directory; a test can hold files in memory).
 */
export interface ServeGenFiles {
  /** The directory, for messages. */
  readonly dir: string;
  readonly traceFiles: readonly string[];
  /** A file of the directory by name, or why it cannot be read. */
  read(name: string): { text: string } | { error: string };
}

/** What a conversion tells on stderr (BLIS's log lines), and what ends it. */
export interface ServeGenLog {
  warn(message: string): void;
  info(message: string): void;
}

/** The chunk id of `chunk-<id>-trace.csv`, and its dataset's name. */
export function chunkOf(traceFile: string): { id: string; dataset: string } {
  const id = traceFile.slice('chunk-'.length, traceFile.length - '-trace.csv'.length);
  return { id, dataset: `chunk-${id}-dataset.json` };
}

export class ServeGenError extends Error {
  constructor(
    readonly file: string,
    readonly expected: string,
    readonly found: string,
  ) {
    super(`${file}: expected ${expected}, found ${found}`);
    this.name = 'ServeGenError';
  }
}
