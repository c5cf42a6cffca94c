import { closeSync, existsSync, openSync, rmSync, writeSync } from 'node:fs';
import { quoteExcerpt } from '@blis/policies/internal';
import { readBoundedText } from '@blis/workload/internal';
import { SweepSpecError } from './sweep-spec-error.js';
import type { SweepRow } from './sweep-task.js';

const FORMAT = 'blis-sweep-journal/1';

/**
 * Largest journal read on resume (64 MiB): it is read whole, and a row is a few hundred bytes,
 * so this holds some hundred thousand finished tasks, more than any sweep runs.
 */
export const SWEEP_JOURNAL_MAX_BYTES = 64 * 1024 * 1024;

/** The key of a row: its candidate and seed. */
export const rowKey = (r: { candidate: number; seed: number }): string => `${r.candidate}/${r.seed}`;

/**
 * Rows journaled by an earlier, interrupted run of the same plan (empty when there is no
 * journal or `restart` is set). A journal written for another plan is refused, since its rows
 * would not be this sweep's: the user reruns with --restart to discard it. A last line cut
 * short by the kill is ignored.
 */
export function readJournal(path: string, hash: string, restart: boolean): Map<string, SweepRow> {
  const rows = new Map<string, SweepRow>();
  if (restart || !existsSync(path)) return rows;
  const read = readBoundedText(path, { maxBytes: SWEEP_JOURNAL_MAX_BYTES, what: `${FORMAT} journal`, trailingNulsAllowed: true });
  if (!read.ok) throw new SweepSpecError([{ where: path, expected: `${read.issue.expected}; rerun with --restart to replace it`, found: read.issue.found }]);
  // A crash can leave NUL bytes after the last whole line; the reader has dropped them.
  const lines = read.text.split('\n');
  let header: { format?: unknown; hash?: unknown } | undefined;
  try {
    header = JSON.parse(lines[0]) as typeof header;
  } catch {
    header = undefined;
  }
  if (header?.format !== FORMAT)
    throw new SweepSpecError([{ where: path, expected: `a ${FORMAT} journal (a file the sweep wrote); rerun with --restart to replace it`, found: quoteExcerpt(lines[0]) }]);
  if (header.hash !== hash)
    throw new SweepSpecError([
      {
        where: path,
        expected: `the journal of this sweep (spec hash ${hash.slice(0, 12)})`,
        found: `the journal of a different spec or workload (hash ${String(header.hash).slice(0, 12)}); rerun with --restart to discard its rows`,
      },
    ]);
  for (const line of lines.slice(1)) {
    if (line === '') continue;
    let row: SweepRow;
    try {
      row = JSON.parse(line) as SweepRow;
    } catch {
      continue;
    }
    if (typeof row.candidate === 'number' && typeof row.seed === 'number' && row.metrics !== null && typeof row.metrics === 'object') rows.set(rowKey(row), row);
  }
  return rows;
}

/**
 * Appends finished rows to the journal, one JSON line each, written synchronously so a kill
 * leaves whole lines behind (at worst a cut last one, which readJournal skips).
 */
export class JournalWriter {
  private readonly fd: number;

  constructor(
    readonly path: string,
    hash: string,
    kept: Iterable<SweepRow>,
  ) {
    // Rewritten from what was kept: drops a cut last line and rows of tasks no longer planned.
    this.fd = openSync(path, 'w');
    writeSync(this.fd, `${JSON.stringify({ format: FORMAT, hash })}\n`);
    for (const r of kept) this.append(r);
  }

  append(row: SweepRow): void {
    writeSync(this.fd, `${JSON.stringify(row)}\n`);
  }

  /** Closes the journal and, once the results are written, removes it. */
  close(remove: boolean): void {
    closeSync(this.fd);
    if (remove) rmSync(this.path, { force: true });
  }
}
