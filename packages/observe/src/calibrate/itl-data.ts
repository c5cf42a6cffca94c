import { TraceReadError } from '@blis/workload';
import { LineReader, intField, splitCsv } from '@blis/workload/internal';

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

/**
 * The rows of one request that time its tokens, given the `output_tokens` its record reports.
 * Our `--record-itl` files list only chunks that carried tokens, never more rows than tokens, and
 * are used as they are. BLIS's files list every SSE event: after the tokens, the usage-only chunk
 * it always asks for, and for chat, before them, the role-only opening chunk. So when a request has
 * more rows than output tokens, the last row goes (the usage chunk), then, while still more, the
 * first (chat's opening chunk), and beyond that only the first `output_tokens` rows are kept. With
 * no token count (0) there is nothing to go by and every row is used.
 */
export function tokenChunkRows(rows: readonly ItlRow[], outputTokens: number): readonly ItlRow[] {
  if (outputTokens <= 0 || rows.length <= outputTokens) return rows;
  let kept = rows.slice(0, -1);
  if (kept.length > outputTokens) kept = kept.slice(1);
  return kept.length > outputTokens ? kept.slice(0, outputTokens) : kept;
}
