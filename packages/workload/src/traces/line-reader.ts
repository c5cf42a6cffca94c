import { allocBytes, closeSync, openSync, readSync, StringDecoder } from '#host-files';
import { TraceReadError } from '../errors.js';

/**
 * Reads a text file line by line, synchronously, 64 KiB at a time: a pull-based request stream
 * can take the next request without holding the whole trace in memory.
 */
export class LineReader {
  readonly path: string;
  /** 1-based number of the line last returned. */
  lineNumber = 0;
  private fd: number;
  private readonly buf: ReturnType<typeof allocBytes>;
  // Keeps a multi-byte character split across two reads whole.
  private readonly decoder: InstanceType<typeof StringDecoder>;
  private pending = '';
  private lines: string[] = [];
  private li = 0;
  private eof = false;

  constructor(path: string) {
    this.path = path;
    try {
      this.fd = openSync(path, 'r');
    } catch (e) {
      throw new TraceReadError({ file: path, expected: 'a readable trace file', found: (e as NodeJS.ErrnoException).code ?? String(e) });
    }
    // After the open: in a browser build, that is what reports the missing file access.
    this.buf = allocBytes(65536);
    this.decoder = new StringDecoder('utf8');
  }

  /** The next line without its newline, or undefined at the end of the file. */
  next(): string | undefined {
    while (this.li >= this.lines.length) {
      if (this.eof) return undefined;
      const n = readSync(this.fd, this.buf, 0, this.buf.length, null);
      if (n === 0) {
        this.eof = true;
        closeSync(this.fd);
        this.fd = -1;
        const tail = this.pending + this.decoder.end();
        this.lines = tail === '' ? [] : [tail];
        this.pending = '';
      } else {
        const text = this.pending + this.decoder.write(this.buf.subarray(0, n));
        const parts = text.split('\n');
        this.pending = parts.pop()!;
        this.lines = parts;
      }
      this.li = 0;
    }
    this.lineNumber++;
    const line = this.lines[this.li++];
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    this.eof = true;
  }
}

/** Splits one CSV line, honouring double-quoted fields (with "" escapes). */
export function splitCsv(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** Quotes a CSV field when it needs it. */
export function csvField(v: string | number | boolean): string {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Parses an integer field, or throws a TraceReadError naming file, line and column. */
export function intField(raw: string, file: string, line: number, field: string, min = 0): number {
  const v = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isInteger(v) || v < min)
    throw new TraceReadError({ file, line, field, expected: min > 0 ? `an integer >= ${min}` : 'a non-negative integer', found: JSON.stringify(raw) });
  return v;
}
