import { isAbsolute, join } from '#host-files';
import * as z from 'zod';
import { type InputIssue, WorkloadSpecError } from '../errors.js';
import { convertServeGen } from './convert-servegen.js';
import { servegenDirectory } from './servegen-directory.js';
import { ServeGenError } from './servegen-files.js';

const secs = z.number().int().nonnegative();

/**
 * A spec's `servegen_data` (BLIS's `ServeGenDataSpec`): a ServeGen data directory loaded into
 * cohorts when the spec is read, as `blis convert servegen` converts it, with the spec's seed.
 */
export const ServeGenDataSchema = z.strictObject({
  /** The directory of chunk-<id>-trace.csv and chunk-<id>-dataset.json files; relative: to the spec file. */
  path: z.string().min(1),
  /** Seconds each period (midnight, morning, afternoon) lasts; unset or 0: 600. */
  window_duration_secs: secs.optional(),
  /** Seconds between two periods; unset: 0 (BLIS's default here, unlike `convert`'s 180). */
  drain_timeout_secs: secs.optional(),
  /** BLIS's deprecated single-period window; read, and unused by BLIS HEAD's loader as by this one. */
  time_window: z.string().optional(),
  /** BLIS's internal span (seconds); read, and unused by BLIS HEAD's loader as by this one. */
  span_start: secs.optional(),
  /** BLIS's internal span (seconds); read, and unused by BLIS HEAD's loader as by this one. */
  span_end: secs.optional(),
});

export type ServeGenDataSpec = z.output<typeof ServeGenDataSchema>;

/** What loading a spec's `servegen_data` adds to it: its cohorts and, for reasoning data, its category. */
export interface ServeGenSpecLoad {
  cohorts: unknown[];
  category?: string;
  notes: string[];
}

/**
 * Loads the directory of `servegen_data` (BLIS's loadServeGenData): every period's cohorts, drawn
 * with `seed`, placed `window_duration_secs + drain_timeout_secs` apart. Throws the issues of a
 * directory that cannot be read or converted, at the `path` field.
 */
export function loadServeGenSection(sg: ServeGenDataSpec, seed: number, specFile: string, baseDir: string | undefined, line: number | undefined): ServeGenSpecLoad {
  const dir = isAbsolute(sg.path) || baseDir === undefined ? sg.path : join(baseDir, sg.path);
  const at = (expected: string, found: string): InputIssue[] => [{ file: specFile, line, field: 'servegen_data.path', expected, found }];
  const notes: string[] = [];
  const said = new Set<string>();
  const say = (m: string) => {
    if (!said.has(m)) notes.push(m);
    said.add(m);
  };
  let files: ReturnType<typeof servegenDirectory>;
  try {
    files = servegenDirectory(dir);
  } catch (e) {
    throw new WorkloadSpecError(at('a readable ServeGen data directory', `${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`));
  }
  try {
    const spec = convertServeGen(files, { windowSec: sg.window_duration_secs || 600, drainSec: sg.drain_timeout_secs ?? 0, seed }, { warn: (m) => say(`servegen_data: warning: ${m}`), info: (m) => say(`servegen_data: ${m}`) });
    if (sg.time_window !== undefined || sg.span_start !== undefined || sg.span_end !== undefined)
      say('servegen_data: time_window, span_start and span_end are read but unused (BLIS HEAD loads every period, whatever they say)');
    return { cohorts: spec.cohorts, ...(spec.category !== '' ? { category: spec.category } : {}), notes };
  } catch (e) {
    if (e instanceof ServeGenError) throw new WorkloadSpecError(at(e.expected, e.file === dir ? e.found : `${e.file}: ${e.found}`));
    throw e;
  }
}
