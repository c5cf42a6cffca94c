import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { rejects } from './blis-process.js';

// A FIFO or a device named as an input file: reading /dev/zero never ends, opening a FIFO waits
// for a writer that never comes. Each is refused by name before it is opened (exit 2, nothing on
// stdout), where before the process was still reading 20 s later.

const dir = mkdtempSync(join(tmpdir(), 'blis-special-'));
const fifo = join(dir, 'pipe');
execFileSync('mkfifo', [fifo]);

const CASES: [string, string[], (path: string, kind: string) => string][] = [
  ['--workload-spec', ['run', '--workload-spec'], (p, k) => `--workload-spec ${p}: expected a readable workload spec file (a regular file), found ${k}`],
  ['--policy-config', ['run', '--policy-config'], (p, k) => `--policy-config ${p}: expected a readable policy configuration file (a regular file), found ${k}`],
  ['--kv-offload-config', ['run', '--kv-offload-config'], (p, k) => `--kv-offload-config ${p}: expected a readable KV offload configuration file (a regular file), found ${k}`],
  ['--routing-policy', ['run', '--routing-policy'], (p, k) => `--routing-policy ${p}: expected a readable ES module (a regular file), found ${k}`],
  ['evaluate --request', ['evaluate', '--request'], (p, k) => `--request ${p}: expected a readable JSON file (a regular file), found ${k}`],
  ['a sweep spec', ['sweep', '--output', join(dir, 'out.csv')], (p, k) => `${p}: expected a sweep spec file (a regular file), found ${k}`],
  ['a report result', ['report', '--output', join(dir, 'r.html')], (p, k) => `result ${p}: expected a readable result JSON file (blis run --results-path) (a regular file), found ${k}`],
  ['replay --trace', ['replay', '--trace'], (p, k) => `--trace ${p}: expected a readable trace file (a regular file), found ${k}`],
];

describe.concurrent('input files that are not regular files are refused by name', () => {
  for (const [name, args, message] of CASES) {
    it(`${name}: /dev/zero and a FIFO`, async ({ expect }) => {
      await rejects(expect, [...args, '/dev/zero'], message('/dev/zero', 'a character device'));
      await rejects(expect, [...args, fifo], message(fifo, 'a named pipe (FIFO)'));
    });
  }
});
