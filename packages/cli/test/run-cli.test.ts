import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workloadPreset } from '@blis/latency';
import { build } from 'tsup';
import { beforeAll, describe, expect, it } from 'vitest';

// `blis run` on one instance through the `blis` process (issue #3's "done means"): the result
// JSON and its fields, determinism, roofline, --results-path, the old flag aliases, the length
// presets, the arrival process, stdout carrying only JSON; and `blis --version`.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'packages', 'cli', 'bin', 'blis.js');
const PKG = JSON.parse(readFileSync(join(ROOT, 'packages', 'cli', 'package.json'), 'utf8')) as { version: string };
const MODEL = ['--model', 'meta-llama/llama-3.1-8b-instruct'];
const tmp = mkdtempSync(join(tmpdir(), 'blis-run-cli-'));

function blis(args: readonly string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function ok(...args: string[]): { stdout: string; stderr: string; res: Record<string, number> } {
  const r = blis(args);
  expect(r.stderr).not.toMatch(/internal error/);
  expect(r.code, r.stderr).toBe(0);
  return { stdout: r.stdout, stderr: r.stderr, res: JSON.parse(r.stdout) };
}

/** The single-instance metrics the issue lists, in the order BLIS prints them. */
const RESULT_FIELDS = [
  'instance_id',
  'completed_requests',
  'still_queued',
  'still_running',
  'injected_requests',
  'total_input_tokens',
  'total_output_tokens',
  'vllm_estimated_duration_s',
  'responses_per_sec',
  'tokens_per_sec',
  ...['e2e', 'ttft', 'itl'].flatMap((m) => ['mean', 'p90', 'p95', 'p99'].map((q) => `${m}_${q}_ms`)),
  'scheduling_delay_p99_ms',
  'preemption_count',
  'dropped_unservable',
  'kv_allocation_failures',
  'cache_hit_rate',
];

describe('blis run --model meta-llama/llama-3.1-8b-instruct --num-requests 1000 --rate 10', () => {
  const args = ['run', ...MODEL, '--num-requests', '1000', '--rate', '10'];
  let first: ReturnType<typeof blis>;
  let second: ReturnType<typeof blis>;
  beforeAll(() => {
    // BLIS_PROGRESS=1 forces the progress bar though stderr is a pipe: it must stay off stdout.
    first = blis(args, { BLIS_PROGRESS: '1' });
    second = blis(args);
  });

  it('prints the complete result JSON, and only that, on stdout', () => {
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.startsWith('{\n')).toBe(true);
    expect(first.stdout.endsWith('}\n')).toBe(true);
    const res = JSON.parse(first.stdout) as Record<string, unknown>;
    const keys = Object.keys(res);
    for (const f of RESULT_FIELDS) expect(keys, f).toContain(f);
    // Those fields lead the object in the order; per-instance and grouped blocks follow.
    expect(keys.filter((k) => RESULT_FIELDS.includes(k))).toEqual(RESULT_FIELDS);
    for (const f of RESULT_FIELDS.slice(1)) expect(Number.isFinite(res[f]), f).toBe(true);
    expect(res).toMatchObject({ completed_requests: 1000, injected_requests: 1000, still_queued: 0, still_running: 0, dropped_unservable: 0 });
    const r = res as Record<string, number>;
    expect(r.ttft_mean_ms).toBeGreaterThan(0);
    expect(r.ttft_p90_ms).toBeLessThanOrEqual(r.ttft_p95_ms);
    expect(r.ttft_p95_ms).toBeLessThanOrEqual(r.ttft_p99_ms);
    expect(r.e2e_p99_ms).toBeGreaterThanOrEqual(r.ttft_p99_ms);
    expect(r.responses_per_sec).toBeCloseTo(1000 / r.vllm_estimated_duration_s, 9);
  });

  it('logs on stderr: the run summary line (and no JSON)', () => {
    expect(first.stderr).toMatch(/blis: 1 instance\(s\), trained-physics latency, 26312 KV blocks \(derived: 80 GiB × 0\.9 × TP 1 − 14\.96 weights − 5\.5 activations − 0\.15 non-torch = 51\.39 GiB \/ 2097152 B per block\); 1000\/1000 completed in [\d.]+ simulated s\n$/);
    expect(first.stderr).not.toContain('"completed_requests"');
  });

  it('is deterministic: a second run prints byte-identical stdout', () => {
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
  });
});

describe('blis run options', () => {
  it('roofline runs for qwen/qwen3-14b', () => {
    const roof = ok('run', '--model', 'qwen/qwen3-14b', '--latency-model', 'roofline', '--num-requests', '30', '--rate', '2');
    expect(roof.stderr).toMatch(/roofline latency/);
    expect(roof.res.completed_requests).toBe(30);
    expect(roof.res.ttft_mean_ms).toBeGreaterThan(0);
    expect(roof.res.itl_mean_ms).toBeGreaterThan(0);
    // A TP that divides Qwen3 14B's 40 heads runs too, and more GPUs make decode steps faster.
    const tp4 = ok('run', '--model', 'qwen/qwen3-14b', '--latency-model', 'roofline', '--num-requests', '30', '--rate', '2', '--tp', '4', '--quiet');
    expect(tp4.res.itl_mean_ms).toBeLessThan(roof.res.itl_mean_ms);
  });

  it('--results-path writes the stdout JSON plus per-request records under `requests` (and `unfinished_requests`)', () => {
    const path = join(tmp, 'results.json');
    const r = ok('run', ...MODEL, '--num-requests', '25', '--rate', '5', '--quiet', '--results-path', path);
    const file = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> & { requests: Record<string, unknown>[] };
    const { requests, unfinished_requests, ...summary } = file;
    expect(summary).toEqual(r.res);
    expect(Object.keys(file).slice(-2)).toEqual(['requests', 'unfinished_requests']);
    expect(unfinished_requests).toEqual([]);
    expect(r.stdout).not.toContain('"requests"');
    expect(requests).toHaveLength(25);
    for (const q of requests) {
      expect(Object.keys(q)).toEqual(expect.arrayContaining(['request_id', 'arrival_ms', 'input_tokens', 'output_tokens', 'ttft_ms', 'e2e_ms', 'scheduling_delay_ms']));
      expect(q.e2e_ms as number).toBeGreaterThanOrEqual(q.ttft_ms as number);
    }
    expect(requests.reduce((s, q) => s + (q.input_tokens as number), 0)).toBe(r.res.total_input_tokens);
  });

  it('the old flag names are accepted and give the same result as the new ones', () => {
    const base = ['run', ...MODEL, '--num-requests', '40', '--rate', '20', '--quiet'];
    const old = ok(...base, '--max-num-running-reqs', '4', '--max-num-scheduled-tokens', '256', '--block-size', '32', '--gpu', 'H100');
    const now = ok(...base, '--max-num-seqs', '4', '--max-num-batched-tokens', '256', '--block-size-in-tokens', '32', '--hardware', 'H100');
    expect(old.stdout).toBe(now.stdout);
    // ...and they take effect: the defaults (256 sequences, 2048 tokens) give another result.
    expect(ok(...base).stdout).not.toBe(now.stdout);
  });

  it.each(['chatbot', 'contentgen', 'summarization', 'multidoc'])('--workload %s uses the preset lengths', (name) => {
    const n = 40;
    const { res } = ok('run', ...MODEL, '--workload', name, '--num-requests', String(n), '--rate', '2', '--quiet');
    expect(res.completed_requests).toBe(n);
    const p = workloadPreset(name);
    // Means of n clipped-Gaussian draws: within 5 standard errors of the preset's mean.
    expect(Math.abs(res.total_input_tokens / n - (p.prefix_tokens ?? 0) - p.prompt_tokens)).toBeLessThan((5 * p.prompt_tokens_stdev) / Math.sqrt(n));
    expect(Math.abs(res.total_output_tokens / n - p.output_tokens)).toBeLessThan((5 * p.output_tokens_stdev) / Math.sqrt(n));
  });

  it('arrivals are constant by default, every 1/rate seconds as BLIS`s; --arrival-process poisson changes the result', () => {
    const base = ['run', ...MODEL, '--num-requests', '50', '--rate', '8', '--quiet'];
    const path = join(tmp, 'constant.json');
    const constant = ok(...base, '--results-path', path);
    expect(ok(...base, '--arrival-process', 'constant').stdout).toBe(constant.stdout);
    const poisson = ok(...base, '--arrival-process', 'poisson');
    expect(poisson.stdout).not.toBe(constant.stdout);
    expect(poisson.res.completed_requests).toBe(50);
    const arrivals = (JSON.parse(readFileSync(path, 'utf8')) as { requests: { arrival_ms: number }[] }).requests.map((q) => q.arrival_ms).sort((a, b) => a - b);
    expect(arrivals).toHaveLength(50);
    // BLIS's gap at 8 req/s: int64(1 / (8 / 1e6)) = 125,000 µs (the quotient is exact here).
    for (const [i, t] of arrivals.entries()) expect(t).toBe(125 * (i + 1));
  });

  it('--quiet leaves stderr empty', () => {
    const r = ok('run', ...MODEL, '--num-requests', '5', '--quiet');
    expect(r.stderr).toBe('');
  });

  it('models and policies print JSON catalogues on stdout', () => {
    const models = ok('models').res as unknown as { models: string[]; hardware: string[] };
    expect(models.models).toContain('qwen/qwen3-14b');
    expect(models.hardware).toContain('H100');
    const policies = ok('policies').res as unknown as Record<string, string[]>;
    expect(Object.keys(policies)).toEqual(expect.arrayContaining(['admission', 'priority', 'routing', 'scheduler', 'scorer', 'decider', 'autoscaler']));
    expect(policies.decider).toEqual(expect.arrayContaining(['never', 'always', 'prefix-threshold']));
  });
});

describe('blis --version', () => {
  it('prints the version in packages/cli/package.json', () => {
    for (const flag of ['--version', '-V']) {
      const r = blis([flag]);
      expect(r).toEqual({ code: 0, stdout: `${PKG.version}\n`, stderr: '' });
    }
  });

  it('reads package.json next to the module from the ESM and the CJS build', async () => {
    // Build version.ts the way tsup builds the package (ESM + CJS, no shims) into a fake
    // package with another version: both builds must find that package.json, one level up.
    const pkg = join(tmp, 'fake-cli');
    mkdirSync(pkg);
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@blis/cli', version: '9.8.7-test', type: 'module' }));
    await build({
      entry: { version: join(ROOT, 'packages', 'cli', 'src', 'version.ts') },
      outDir: join(pkg, 'dist'),
      format: ['esm', 'cjs'],
      target: 'node20',
      platform: 'node',
      shims: false,
      splitting: false,
      dts: false,
      config: false,
      silent: true,
    });
    const esm = spawnSync(process.execPath, ['--input-type=module', '-e', `import { cliVersion } from ${JSON.stringify(join(pkg, 'dist', 'version.js'))}; process.stdout.write(cliVersion());`], { encoding: 'utf8' });
    const cjs = spawnSync(process.execPath, ['-e', `process.stdout.write(require(${JSON.stringify(join(pkg, 'dist', 'version.cjs'))}).cliVersion());`], { encoding: 'utf8' });
    expect(esm.stderr).toBe('');
    expect(esm.stdout).toBe('9.8.7-test');
    expect(cjs.stderr).toBe('');
    expect(cjs.stdout).toBe('9.8.7-test');
  });
});

describe('docs/cli.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
  const help = (...cmd: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...cmd, '--help'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    // Commander wraps long descriptions: join continuation lines back onto their option.
    return r.stdout.replace(/\n {20,}(?=\S)/g, ' ');
  };

  it('documents every command `blis --help` lists', () => {
    const commands = [...help().matchAll(/^ {2}(\w+) (?:\[options\]|\[command\])?/gm)].map((m) => m[1]);
    expect(commands).toEqual(expect.arrayContaining(['run', 'replay', 'convert', 'models', 'policies']));
    for (const c of commands) {
      if (c === 'help') expect(doc).toContain('`blis help [command]`');
      else expect(doc, c).toMatch(new RegExp(`^## .*\`blis ${c}\``, 'm'));
    }
  });

  it.each(['run', 'replay', 'convert', 'capacity', 'observe', 'serve-sim', 'report'])('lists every flag of `blis %s --help` with its default', (cmd) => {
    for (const m of help(cmd).matchAll(/^ {2}(?:-\w, )?(--[\w-]+)(?: <\w+>)?\s{2,}(.*)$/gm)) {
      const [, flag, desc] = m;
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${flag} `) || l.startsWith(`| \`${flag}\``) || l.startsWith(`| \`-h, ${flag}`));
      expect(row, `${cmd} ${flag}`).toBeDefined();
      const def = / \(default: (.*?)\)(?: \[[^\]]*\])?$/.exec(desc)?.[1];
      if (def !== undefined) expect(row, `${cmd} ${flag}`).toContain(`\`${def}\``);
    }
  });
});

describe('policy settings that apply to no selected policy', () => {
  const file = join(tmp, 'unused-setting.yaml');
  writeFileSync(file, 'admission:\n  policy: always-admit\n  token_bucket_capacity: 100\n');

  it('are named in a warning on stderr, and the result is unchanged', () => {
    const withFile = ok('run', ...MODEL, '--num-requests', '20', '--policy-config', file);
    const plain = ok('run', ...MODEL, '--num-requests', '20');
    expect(withFile.stderr).toContain('blis: warning: admission.token_bucket_capacity ignored: admission policy "always-admit" does not use it');
    expect(withFile.stdout).toBe(plain.stdout);
  });

  it('are not reported under --quiet', () => {
    expect(ok('run', ...MODEL, '--num-requests', '20', '--policy-config', file, '--quiet').stderr).toBe('');
  });
});

describe('--saturation-limit', () => {
  it('reaches the gateway: a lower limit holds requests longer', () => {
    // 40 req/s keep more than 2 x 10 requests in flight: the concurrency detector holds some.
    const args = ['run', ...MODEL, '--num-instances', '2', '--num-requests', '200', '--rate', '40', '--arrival-process', 'poisson', '--flow-control', '--saturation-detector', 'concurrency', '--max-concurrency', '10'];
    const loose = ok(...args).res as unknown as { gateway: { delay_mean_ms: number } };
    const tight = ok(...args, '--saturation-limit', '0.3').res as unknown as { gateway: { delay_mean_ms: number } };
    expect(tight.gateway.delay_mean_ms).toBeGreaterThan(loose.gateway.delay_mean_ms);
  });
});

describe('a reader that stops early', () => {
  it('ends the run quietly when stdout is closed before the result (no EPIPE trace), exit 0', async () => {
    const child = spawn(process.execPath, [BIN, 'run', ...MODEL, '--num-requests', '3000', '--rate', '40', '--num-instances', '4', '--quiet'], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.stdout.destroy(); // closed before the result is written
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(stderr).not.toMatch(/EPIPE/);
    expect(code).toBe(0);
  });
});
