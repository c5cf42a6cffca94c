import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type BlisWorkloadSpec, type ServeGenFiles, type ServeGenPeriod, ServeGenError, blisSpecYaml, convertServeGen, readBoundedText } from '@blis/workload';
import { CONVERT_SERVEGEN_FLAGS } from '../convert-spec-flags.js';
import { parseFlags } from '../flags.js';
import { describeErrno, requireReadable } from '../input-files.js';
import { UsageError } from '../usage-error.js';

/** A ServeGen file is a day or two weeks of one chunk: a few MB; refused unread past this. */
const MAX_SERVEGEN_FILE_BYTES = 256 * 1024 * 1024;

/** The directory's trace files, in Go's byte order, and its files read on demand (each once). */
function servegenDirectory(dir: string): ServeGenFiles {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    throw new UsageError([{ where: `--path ${dir}`, expected: 'a readable ServeGen data directory', found: describeErrno(e) }]);
  }
  const traceFiles = names.filter((n) => /^chunk-.*-trace\.csv$/.test(n)).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const cache = new Map<string, { text: string } | { error: string }>();
  return {
    dir,
    traceFiles,
    read(name) {
      let got = cache.get(name);
      if (got === undefined) {
        const r = readBoundedText(join(dir, name), { maxBytes: MAX_SERVEGEN_FILE_BYTES, what: 'ServeGen file' });
        got = r.ok ? { text: r.text } : { error: r.issue.expected.startsWith('a readable') ? r.issue.found : `${r.issue.found}, not ${r.issue.expected}` };
        cache.set(name, got);
      }
      return got;
    },
  };
}

/** `blis convert servegen`: BLIS's multi-period cohort spec of a ServeGen data directory, on stdout. */
export function runConvertServeGenCommand(raw: Record<string, unknown>): void {
  const f = parseFlags(CONVERT_SERVEGEN_FLAGS, raw);
  if (f.path === undefined) throw new UsageError([{ where: '--path', expected: 'a value (`blis convert servegen` requires it)', found: 'nothing' }]);
  const given = f.path as string;
  const dir = given.length > 1 ? given.replace(/\/+$/, '') : given;
  requireReadable('--path', dir, 'ServeGen data directory', true);
  if (!statSync(dir).isDirectory()) throw new UsageError([{ where: `--path ${dir}`, expected: 'a ServeGen data directory (chunk-<id>-trace.csv and chunk-<id>-dataset.json files)', found: 'a file' }]);
  // BLIS repeats a warning for every pass over a file; once is enough to tell.
  const said = new Set<string>();
  const say = (m: string) => {
    if (said.has(m)) return;
    said.add(m);
    process.stderr.write(`blis: ${m}\n`);
  };
  let spec: BlisWorkloadSpec;
  try {
    spec = convertServeGen(
      servegenDirectory(dir),
      { windowSec: (f.windowDurationSeconds as number | undefined) ?? 600, drainSec: (f.drainTimeoutSeconds as number | undefined) ?? 180, period: f.time as ServeGenPeriod | undefined },
      { warn: (m) => say(`warning: ${m}`), info: (m) => say(`note: ${m}`) },
    );
  } catch (e) {
    if (e instanceof ServeGenError) throw new UsageError([{ where: e.file.startsWith(dir) && e.file !== dir ? e.file : `--path ${dir}`, expected: e.expected, found: e.found }]);
    throw e;
  }
  process.stdout.write(blisSpecYaml(spec));
}
