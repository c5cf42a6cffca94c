import { LineReader, TraceReadError, intField, splitCsv } from '@blis/workload';

/** One chunk's arrival, from `blis observe --record-itl`. */
export interface ItlRow {
  requestId: number;
  /** 0 is the first chunk. */
  chunkIndex: number;
  timestampUs: number;
}

/** Reads an ITL CSV (`request_id, chunk_index, timestamp_us`, after a header row). */
export function readItlRows(path: string): ItlRow[] {
  const lines = new LineReader(path);
  try {
    const first = lines.next();
    if (first === undefined) throw new TraceReadError({ file: path, line: 1, expected: 'a header row (request_id,chunk_index,timestamp_us)', found: 'an empty file' });
    const out: ItlRow[] = [];
    for (let line = lines.next(); line !== undefined; line = lines.next()) {
      if (line.trim() === '') continue;
      const ln = lines.lineNumber;
      const c = splitCsv(line);
      if (c.length < 3) throw new TraceReadError({ file: path, line: ln, expected: '3 columns (request_id, chunk_index, timestamp_us)', found: `${c.length}` });
      out.push({
        requestId: intField(c[0], path, ln, 'request_id'),
        chunkIndex: intField(c[1], path, ln, 'chunk_index'),
        timestampUs: intField(c[2], path, ln, 'timestamp_us'),
      });
    }
    return out;
  } finally {
    lines.close();
  }
}

/** The rows of each request, in chunk order (a stable sort keeps duplicates in file order). */
export function itlRowsByRequest(rows: readonly ItlRow[]): Map<number, ItlRow[]> {
  const by = new Map<number, ItlRow[]>();
  for (const r of rows) {
    const list = by.get(r.requestId);
    if (list === undefined) by.set(r.requestId, [r]);
    else list.push(r);
  }
  for (const list of by.values()) list.sort((a, b) => a.chunkIndex - b.chunkIndex);
  return by;
}
