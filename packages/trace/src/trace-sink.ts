import { closeSync, openSync, writeSync } from '#host-files';

/** Where trace lines go. Lines arrive complete, newline included. */
export interface TraceSink {
  write(line: string): void;
  /** Flushes what is buffered and releases the destination. Idempotent. */
  close(): void;
}

/** The trace destination could not be opened or written. */
export class TraceOutputError extends Error {
  readonly path: string;
  readonly code: string;
  constructor(path: string, code: string) {
    super(`cannot write the decision trace to ${path}: ${code}`);
    this.name = 'TraceOutputError';
    this.path = path;
    this.code = code;
  }
}

/** Characters buffered before a synchronous write: large enough to amortise the syscall. */
const DEFAULT_BUFFER_CHARS = 1 << 16;

/**
 * Streams lines to a file through a bounded buffer flushed with synchronous writes, so memory
 * stays flat however long the trace grows, and the file is complete when `close()` returns
 * (no pending stream callbacks when the CLI exits).
 */
export class JsonlFileSink implements TraceSink {
  readonly path: string;
  private fd: number;
  private buffer = '';
  private readonly limit: number;

  constructor(path: string, bufferChars = DEFAULT_BUFFER_CHARS) {
    this.path = path;
    this.limit = bufferChars;
    try {
      this.fd = openSync(path, 'w');
    } catch (e) {
      throw new TraceOutputError(path, (e as NodeJS.ErrnoException).code ?? String(e));
    }
  }

  write(line: string): void {
    this.buffer += line;
    if (this.buffer.length >= this.limit) this.flush();
  }

  flush(): void {
    if (this.buffer.length === 0 || this.fd < 0) return;
    try {
      writeSync(this.fd, this.buffer);
    } catch (e) {
      throw new TraceOutputError(this.path, (e as NodeJS.ErrnoException).code ?? String(e));
    }
    this.buffer = '';
  }

  close(): void {
    if (this.fd < 0) return;
    this.flush();
    closeSync(this.fd);
    this.fd = -1;
  }
}

/** Keeps every line in memory: for tests and small in-process analyses only. */
export class MemorySink implements TraceSink {
  readonly lines: string[] = [];
  write(line: string): void {
    this.lines.push(line);
  }
  close(): void {}
  /** The whole trace as one JSONL text. */
  text(): string {
    return this.lines.join('');
  }
}
