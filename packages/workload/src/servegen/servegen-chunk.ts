import type { BlisArrival } from '../convert/blis-spec-document.js';
import { goInt } from './go-parse.js';
import { rowArrival } from './servegen-arrival.js';
import { datasetWindows, nearestDatasetStart } from './servegen-dataset.js';
import { type ServeGenFiles, type ServeGenLog, ServeGenError, chunkOf } from './servegen-files.js';
import { fitLognormal } from './servegen-fit.js';
import { parseServeGenTrace } from './servegen-trace.js';

/** ServeGen's trace window: 10 minutes. */
export const SERVEGEN_WINDOW_SEC = 600;

/** One active 10-minute window of a chunk: its start (µs), rate and arrival process. */
export interface ChunkWindow {
  startUs: number;
  rate: number;
  arrival: BlisArrival;
}

/** A chunk (one client of ServeGen's population) with its active windows. */
export interface Chunk {
  id: string;
  dataset: string;
  windows: ChunkWindow[];
}

/** The rows of a trace file, with BLIS's warnings for the rows it skipped; an unreadable file is an error. */
export function readTraceRows(files: ServeGenFiles, name: string, log: ServeGenLog) {
  const read = files.read(name);
  if ('error' in read) return { error: read.error };
  const parsed = parseServeGenTrace(read.text);
  if ('error' in parsed) return parsed;
  if (parsed.fiveColumnRows > 0) log.warn(`${name}: ${parsed.fiveColumnRows} row(s) with 5 columns (4 or 6 expected); their shape and scale come from the CV`);
  if (parsed.skipped > 0) log.warn(`${name}: ${parsed.skipped} row(s) skipped (under 4 columns, or an unreadable start, rate or cv)`);
  return parsed;
}

/**
 * A chunk's active windows (BLIS's loadServeGenChunk): every row with a positive rate and a
 * dataset window at or before it. Its distributions are fitted too, because a PMF BLIS cannot
 * fit ends the conversion there; undefined for a chunk with no active window.
 */
export function loadChunk(files: ServeGenFiles, traceFile: string, log: ServeGenLog): Chunk | undefined {
  const { id, dataset } = chunkOf(traceFile);
  const rows = readTraceRows(files, traceFile, log);
  if ('error' in rows) throw new ServeGenError(`${files.dir}/${traceFile}`, 'a readable ServeGen trace CSV', rows.error);
  const text = files.read(dataset);
  if ('error' in text) throw new ServeGenError(`${files.dir}/${dataset}`, `the dataset of chunk ${id}`, text.error);
  const ds = datasetWindows(text.text);
  if ('error' in ds) throw new ServeGenError(`${files.dir}/${dataset}`, 'a ServeGen dataset JSON', ds.error);
  const windows: ChunkWindow[] = [];
  const used = new Set<number>();
  for (const row of rows.rows) {
    if (row.rate <= 0) continue;
    const start = nearestDatasetStart(goInt(row.startSec), ds.byStart);
    if (start === undefined) continue;
    used.add(start);
    windows.push({ startUs: Math.trunc(row.startSec * 1e6), rate: row.rate, arrival: rowArrival(row) });
  }
  if (windows.length === 0) return undefined;
  for (const start of [...used].sort((a, b) => a - b)) {
    const w = ds.byStart.get(start)!;
    for (const [what, pmf] of [['input', w.input], ['output', w.output]] as const) {
      const fit = fitLognormal(pmf);
      if ('error' in fit) throw new ServeGenError(`${files.dir}/${dataset}`, `a ${what} token PMF a lognormal fits (window ${start})`, fit.error);
    }
  }
  return { id, dataset, windows };
}

/** Whether a window starts at `second` of a day (ServeGen's multi-day traces repeat by time of day). */
export function atTimeOfDay(w: ChunkWindow, second: number): boolean {
  return Math.trunc(w.startUs / 1e6) % 86400 === second;
}
