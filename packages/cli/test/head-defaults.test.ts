import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExpectStatic, describe, it } from 'vitest';

// BLIS HEAD's defaults and flag names (issue #13, part 4): the request timeout of `blis run`,
// and `blis replay --trace-header/--trace-data` beside `--trace`.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SOURCE = join(ROOT, 'packages', 'cli', 'src', 'cli.ts');
const FIXTURES = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'blis-parity');
const tmp = mkdtempSync(join(tmpdir(), 'blis-head-defaults-'));

function blis(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const argv = ['--conditions=@blis/source', '--import', 'tsx', SOURCE, ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout, stderr });
    });
  });
}

async function ok(expect: ExpectStatic, args: readonly string[]): Promise<Record<string, number>> {
  const r = await blis(args);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, number>;
}

async function rejects(expect: ExpectStatic, args: readonly string[], line: string) {
  const r = await blis(args);
  expect(r.stdout).toBe('');
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toBe(`blis: ${line}\n`);
}

// 40 requests a second of 2,000-token prompts on 200 KV blocks (3,200 tokens): one request at a
// time, each taking well over a second, so the queue grows by minutes within the run.
const OVERLOAD = ['run', '--quiet', '--num-requests', '300', '--rate', '40', '--prompt-tokens', '2000', '--prompt-tokens-stdev', '0', '--output-tokens', '400', '--output-tokens-stdev', '0', '--total-kv-blocks', '200'];

describe.concurrent('blis run --timeout (BLIS: 300 s by default, negative = none, 0 refused)', () => {
  it('by default, requests still unfinished 300 s after arrival time out', async ({ expect }) => {
    const r = await ok(expect, OVERLOAD);
    expect(r.timed_out_requests).toBeGreaterThan(0);
    expect(r.completed_requests + r.timed_out_requests + r.still_queued + r.still_running + (r.dropped_unservable ?? 0)).toBe(300);
  });

  it('a negative --timeout disables the deadline: every request completes', async ({ expect }) => {
    const r = await ok(expect, [...OVERLOAD, '--timeout', '-1']);
    expect(r.timed_out_requests).toBe(0);
    expect(r.completed_requests).toBe(300);
  });

  it('a shorter --timeout times out more requests', async ({ expect }) => {
    const [def, short] = await Promise.all([ok(expect, OVERLOAD), ok(expect, [...OVERLOAD, '--timeout', '60'])]);
    expect(short.timed_out_requests).toBeGreaterThan(def.timed_out_requests);
  });

  it('deadlines that never fire change nothing, not even the run\'s duration (BLIS skips a finished request\'s timeout)', async ({ expect }) => {
    const light = ['run', '--quiet', '--num-requests', '50', '--rate', '5'];
    const [def, none] = await Promise.all([blis(light), blis([...light, '--timeout', '-1'])]);
    expect(def.code, def.stderr).toBe(0);
    expect(def.stdout).toBe(none.stdout);
    expect((JSON.parse(def.stdout) as { vllm_estimated_duration_s: number }).vllm_estimated_duration_s).toBeLessThan(30);
  });

  it('--timeout 0 is refused', ({ expect }) => rejects(expect, [...OVERLOAD, '--timeout', '0'], '--timeout: expected seconds > 0, or a negative number for no deadline, found 0'));

  it('is a workload flag, so `blis replay` refuses it', ({ expect }) =>
    rejects(
      expect,
      ['replay', '--quiet', '--trace', join(FIXTURES, 'azurecode2k.yaml'), '--timeout', '5'],
      '--timeout: expected no workload-generation flag with `blis replay` (the trace gives arrivals and lengths; see --max-requests, --time-scale), found "5"',
    ));
});

describe.concurrent('blis replay --trace-header/--trace-data (BLIS\'s names)', () => {
  const common = ['replay', '--quiet', '--max-requests', '200', '--model', 'meta-llama/llama-3.1-8b-instruct', '--total-kv-blocks', '7463'];

  it('replays the same requests as --trace, even when the two files are named apart', async ({ expect }) => {
    const header = join(tmp, 'header-elsewhere.yaml');
    const data = join(tmp, 'rows.csv');
    copyFileSync(join(FIXTURES, 'azurecode2k.yaml'), header);
    copyFileSync(join(FIXTURES, 'azurecode2k.csv'), data);
    const [viaTrace, viaPair] = await Promise.all([
      blis([...common, '--trace', join(FIXTURES, 'azurecode2k.yaml')]),
      blis([...common, '--trace-header', header, '--trace-data', data]),
    ]);
    expect(viaTrace.code, viaTrace.stderr).toBe(0);
    expect(viaPair.code, viaPair.stderr).toBe(0);
    expect(viaPair.stdout).toBe(viaTrace.stdout);
    expect((JSON.parse(viaPair.stdout) as { completed_requests: number }).completed_requests).toBe(200);
  });

  it('one of the pair alone is refused', ({ expect }) =>
    rejects(expect, [...common, '--trace-header', join(FIXTURES, 'azurecode2k.yaml')], '--trace-data: expected a file beside --trace-header, found nothing'));

  it('the pair and --trace together are refused', ({ expect }) =>
    rejects(
      expect,
      [...common, '--trace', join(FIXTURES, 'azurecode2k.yaml'), '--trace-header', join(FIXTURES, 'azurecode2k.yaml'), '--trace-data', join(FIXTURES, 'azurecode2k.csv')],
      '--trace: expected either --trace or --trace-header with --trace-data, found both',
    ));

  it('a missing data file is named', async ({ expect }) => {
    const r = await blis([...common, '--trace-header', join(FIXTURES, 'azurecode2k.yaml'), '--trace-data', join(tmp, 'absent.csv')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^blis: --trace-data \S+absent.csv: expected a readable TraceV2 data file, found ENOENT/);
  });
});

describe.concurrent('workload spec sessions (BLIS: rounds of a multi-turn client without a timeout get 300 s)', () => {
  const spec = (timeout: string) => {
    const p = join(tmp, `sessions${timeout.replace(/\W/g, '')}.yaml`);
    writeFileSync(
      p,
      `version: "2"
seed: 7
aggregate_rate: 50
num_requests: 200
clients:
  - id: chat
    rate_fraction: 1
    ${timeout}
    input_distribution: { type: constant, params: { value: 500 } }
    output_distribution: { type: constant, params: { value: 2000 } }
    reasoning:
      multi_turn: { max_rounds: 4, context_growth: accumulate }
`,
    );
    return p;
  };
  // One request at a time, each decoding 2,000 tokens (about 14 s): 50 sessions queue for minutes.
  const args = (p: string) => ['run', '--quiet', '--workload-spec', p, '--max-num-seqs', '1'];

  it('the default deadline times out rounds of an overloaded instance; timeout: 0 disables it', async ({ expect }) => {
    const [def, none] = await Promise.all([ok(expect, args(spec(''))), ok(expect, args(spec('timeout: 0')))]);
    expect(def.timed_out_requests).toBeGreaterThan(0);
    expect(none.timed_out_requests).toBe(0);
  });

  it('an explicit --timeout overrides the spec', async ({ expect }) => {
    const r = await ok(expect, [...args(spec('timeout: 0')), '--timeout', '30']);
    expect(r.timed_out_requests).toBeGreaterThan(0);
  });
});
