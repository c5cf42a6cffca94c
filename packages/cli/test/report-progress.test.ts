import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runInProcess } from './bad-input/run-in-process.js';
import { TaskProgress } from '../src/output/task-progress.js';

// `blis report` reads and draws for seconds on large results: its bars follow the CLI's rules
// (after a second, on a terminal or with BLIS_PROGRESS=1, never on stdout).

const saved = process.env.BLIS_PROGRESS;
afterEach(() => {
  vi.restoreAllMocks();
  if (saved === undefined) delete process.env.BLIS_PROGRESS;
  else process.env.BLIS_PROGRESS = saved;
});

describe('report progress', () => {
  it('a stage bar keeps the command start it is given', () => {
    process.env.BLIS_PROGRESS = '1';
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation(((s: string) => lines.push(s) > 0) as typeof process.stderr.write);
    new TaskProgress('charts drawn', true, Date.now() - 5000).update(1, 4);
    new TaskProgress('charts drawn', true).update(1, 4);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\r\[#+-+\] {2}25% 1\/4 charts drawn {2}wall 5\.\d s$/);
  });

  it('blis report shows files read and charts drawn on stderr, the same stdout as without', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blis-report-progress-'));
    const results = join(dir, 'r.json');
    const run = await runInProcess(['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '50', '--rate', '10', '--quiet', '--results-path', results]);
    expect(run.code, run.stderr).toBe(0);
    const args = ['report', results, '-o', join(dir, 'r.html')];
    const plain = await runInProcess(args);
    process.env.BLIS_PROGRESS = '1';
    // Every clock reading a second after the last: each step is then "late" enough to draw.
    let now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => (now += 1000));
    const shown = await runInProcess(args);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(plain.stdout);
    expect(plain.stderr).toBe('');
    expect(shown.stderr).toMatch(/\r\[#+\] 100% 1\/1 result files read {2}wall \d+\.\d s\n/);
    expect(shown.stderr).toMatch(/\r\[#+\] 100% (\d+)\/\1 charts drawn {2}wall \d+\.\d s\n$/);
  });
});
