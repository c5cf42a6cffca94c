import { allocBytes, closeSync, openSync, readSync, StringDecoder } from '#host-files';
import { TraceReadError } from '../errors.js';
import { looksBinary, quoteExcerpt } from '../text-excerpt.js';
import { TRACE_LIMITS } from './trace-limits.js';

/**
 * Reads a text file line by line, synchronously, 64 KiB at a time: a pull-based request stream
 * can take the next request without holding the whole trace in memory. Binary data (checked in
 * the first 64 KiB) and lines over {@link TRACE_LIMITS}.maxLineChars are refused.
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
  private started = false;

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
        if (!this.started) {
          this.started = true;
          if (looksBinary(text)) this.fail({ file: this.path, expected: 'a text file (CSV or JSON Lines)', found: 'binary data' });
        }
        const parts = text.split('\n');
        this.pending = parts.pop()!;
        this.lines = parts;
        // Lines before this chunk have all been returned: part i is line lineNumber + i + 1.
        const long = [...parts, this.pending].findIndex((p) => p.length > TRACE_LIMITS.maxLineChars);
        if (long >= 0) this.fail({ file: this.path, line: this.lineNumber + long + 1, expected: `lines of at most ${TRACE_LIMITS.maxLineChars} characters`, found: 'a longer line' });
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

  private fail(issue: ConstructorParameters<typeof TraceReadError>[0]): never {
    this.close();
    throw new TraceReadError(issue);
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

/**
 * Parses a decimal integer field, `min` to `max` (at most 2^53 - 1, where doubles stop being
 * exact), or throws a TraceReadError naming file, line and column.
 */
export function intField(raw: string, file: string, line: number, field: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const t = raw.trim();
  // Decimal digits only ("12.0" too): Number() would also read 0x10, 1e3 and Infinity.
  const v = /^[+-]?\d+(\.0*)?$/.test(t) ? Number(t) : Number.NaN;
  if (!Number.isSafeInteger(v) || v < min || v > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? (min > 0 ? `an integer >= ${min}` : 'a non-negative integer') : `an integer from ${min} to ${max}`;
    // The 2^53 bound is stated when it is what failed (a long run of digits).
    const limit = max === Number.MAX_SAFE_INTEGER && /^\+?\d+(\.0*)?$/.test(t) && v > max ? ` (at most ${max})` : '';
    throw new TraceReadError({ file, line, field, expected: `${range}${limit}`, found: quoteExcerpt(raw) });
  }
  return v;
}

/**
 * {@link intField} of `line[start, end)`, read in place when it is plain digits (at most 15, all
 * exact in a double) within range, the common case; anything else goes through intField, which
 * accepts it or throws as for the sliced field.
 */
export function intFieldAt(line: string, start: number, end: number, file: string, lineNumber: number, field: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (end > start && end - start <= 15) {
    let v = 0;
    let i = start;
    for (; i < end; i++) {
      const d = line.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (i === end && v >= min && v <= max) return v;
  }
  return intField(line.slice(start, end), file, lineNumber, field, min, max);
}
