import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';

// `blis compose` against BLIS HEAD's own output on the same inputs (fixtures/blis-head-compose).

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SOURCE = join(ROOT, 'packages', 'cli', 'src', 'cli.ts');
const FIXTURES = join(import.meta.dirname, 'fixtures', 'blis-head-compose');

function blis(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const argv = ['--conditions=@blis/source', '--import', 'tsx', SOURCE, ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd: ROOT, encoding: 'utf8' }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout, stderr });
    });
  });
}

const CASES: Record<string, string[]> = {
  'chat+prefix': ['multiturn-chat-demo', 'prefix-affinity-demo'],
  'spikes+servegen': ['regression_workload_load_spikes', 'servegen-language'],
  'warmup+multiturn': ['regression_workload_cache_warmup', 'regression_workload_multiturn'],
  'quoting+v1': ['quoting-and-floats', 'v1-small-rate'],
  three: ['multiturn-chat-demo', 'prefix-affinity-demo', 'quoting-and-floats'],
};

describe.concurrent('blis compose: BLIS HEAD\'s output, byte for byte', () => {
  for (const [name, inputs] of Object.entries(CASES)) {
    it(`${name}: ${inputs.join(' + ')}`, async ({ expect }) => {
      const r = await blis(['compose', '--quiet', ...inputs.flatMap((f) => ['--from', join(FIXTURES, `${f}.yaml`)])]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(readFileSync(join(FIXTURES, `${name}.blis.yaml`), 'utf8'));
    });
  }

  it('notes on stderr what the merge leaves out of each input; stdout is the same', async ({ expect }) => {
    const args = ['--from', join(FIXTURES, 'quoting-and-floats.yaml'), '--from', join(FIXTURES, 'v1-small-rate.yaml')];
    const r = await blis(['compose', ...args]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(FIXTURES, 'quoting+v1.blis.yaml'), 'utf8'));
    expect(r.stderr).toContain('quoting-and-floats.yaml: "seed", "num_requests"');
    expect(r.stderr).toContain('v1-small-rate.yaml: "seed", "category"');
  });

  it('the composed spec runs: its clients together send the summed rate', async ({ expect }) => {
    const composed = join(FIXTURES, 'chat+prefix.blis.yaml');
    const r = await blis(['run', '--quiet', '--workload-spec', composed, '--horizon', '2000000']);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { injected_requests: number };
    // 1000 requests/s for 2 s over the merged clients.
    expect(result.injected_requests).toBeGreaterThan(1500);
  });
});
