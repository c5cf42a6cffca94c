import { goTrimSpace, readGoCsv } from './go-csv.js';
import { goParseFloat } from './go-parse.js';

/** One row of a ServeGen chunk-<id>-trace.csv: a 10-minute window's rate and arrival pattern. */
export interface ServeGenTraceRow {
  startSec: number;
  rate: number;
  cv: number;
  /** "Gamma", "Weibull", or "" (no fitted pattern). */
  pattern: string;
  /** The fitted shape and scale (seconds), 0 when the row has none. */
  shape: number;
  scale: number;
}

export type TraceRowsResult = { rows: ServeGenTraceRow[]; skipped: number; fiveColumnRows: number } | { error: string };

/**
 * The rows of a trace file as BLIS reads them (parseServeGenTrace): a row under 4 fields or
 * with an unreadable start, rate or CV is skipped and counted; unreadable shape or scale read as 0.
 */
export function parseServeGenTrace(text: string): TraceRowsResult {
  const csv = readGoCsv(text);
  if ('error' in csv) return csv;
  const rows: ServeGenTraceRow[] = [];
  let skipped = 0;
  let fiveColumnRows = 0;
  for (const r of csv.records) {
    if (r.length < 4) {
      skipped++;
      continue;
    }
    const [startSec, rate, cv] = [r[0], r[1], r[2]].map((c) => goParseFloat(goTrimSpace(c)));
    if (startSec === undefined || rate === undefined || cv === undefined) {
      skipped++;
      continue;
    }
    let shape = 0;
    let scale = 0;
    if (r.length >= 6) {
      const sh = goParseFloat(goTrimSpace(r[4]));
      const sc = goParseFloat(goTrimSpace(r[5]));
      if (sh !== undefined && sc !== undefined) {
        shape = sh;
        scale = sc;
      }
    } else if (r.length === 5) fiveColumnRows++;
    rows.push({ startSec, rate, cv, pattern: goTrimSpace(r[3]), shape, scale });
  }
  return { rows, skipped, fiveColumnRows };
}
