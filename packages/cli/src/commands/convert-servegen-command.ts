import { type ServeGenFiles, servegenDirectory } from '@blis/workload/internal';
import { statSync } from 'node:fs';
import { type BlisWorkloadSpec, type ServeGenPeriod, ServeGenError, blisSpecYaml, convertServeGen } from '@blis/workload';
import { CONVERT_SERVEGEN_FLAGS } from '../flags/convert-spec-flags.js';
import { parseFlags } from '../flags/flags.js';
import { describeErrno, requireReadable } from '../inputs/input-files.js';
import { UsageError } from '../errors/usage-error.js';

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
  let files: ServeGenFiles;
  try {
    files = servegenDirectory(dir);
  } catch (e) {
    throw new UsageError([{ where: `--path ${dir}`, expected: 'a readable ServeGen data directory', found: describeErrno(e) }]);
  }
  let spec: BlisWorkloadSpec;
  try {
    spec = convertServeGen(
      files,
      { windowSec: (f.windowDurationSeconds as number | undefined) ?? 600, drainSec: (f.drainTimeoutSeconds as number | undefined) ?? 180, period: f.time as ServeGenPeriod | undefined },
      { warn: (m) => say(`warning: ${m}`), info: (m) => say(`note: ${m}`) },
    );
  } catch (e) {
    if (e instanceof ServeGenError) throw new UsageError([{ where: e.file.startsWith(dir) && e.file !== dir ? e.file : `--path ${dir}`, expected: e.expected, found: e.found }]);
    throw e;
  }
  process.stdout.write(blisSpecYaml(spec));
}
