import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// `blis sweep` and `blis compare` as processes: worker threads from the sources, the same bytes
// whatever the worker count, resuming after a kill, refusing bad specs, comparing policies.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'packages', 'cli', 'bin', 'blis.js');
const tmp = mkdtempSync(join(tmpdir(), 'blis-sweep-cli-'));

function blis(args: readonly string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function ok(args: readonly string[]) {
  const r = blis(args);
  expect(r.stderr).not.toMatch(/internal error/);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

/** A small sweep: 4 candidates (2 x 2 grid) x 2 seeds of `requests` synthetic requests. */
function sweepFile(name: string, requests: number, extra = ''): string {
  const file = join(tmp, name);
  writeFileSync(
    file,
    `base:
  latencyModel: blackbox
  routing: {policy: weighted, scorers: [{name: queue-depth, weight: 1}, {name: kv-utilization, weight: 1}]}
  workload: {kind: synthetic, numRequests: ${requests}, rate: 40}
seeds: [1, 2]
parameters:
  numInstances: [1, 2]
  routing.scorers.queue-depth: [0.5, 2]
metrics: [ttft_p99_ms, e2e_mean_ms, responses_per_sec, load_fairness.jain_index]
${extra}`,
  );
  return file;
}

const files = (csv: string) => [readFileSync(csv, 'utf8'), readFileSync(csv.replace(/\.csv$/, '.json'), 'utf8')];

describe('blis sweep', () => {
  const spec = sweepFile('small.yaml', 200);

  it('writes the same CSV and JSON bytes with 1 and with 2 worker threads', () => {
    const one = join(tmp, 'one.csv');
    const two = join(tmp, 'two.csv');
    const r1 = ok(['sweep', spec, '--output', one, '--workers', '1']);
    ok(['sweep', spec, '--output', two, '--workers', '2']);
    expect(files(two)).toEqual(files(one));
    const [csv, json] = files(one);
    const lines = csv.trimEnd().split('\n');
    expect(lines[0]).toBe('candidate,seed,numInstances,routing.scorers.queue-depth,ttft_p99_ms,e2e_mean_ms,responses_per_sec,load_fairness.jain_index');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 4).join(','))).toEqual(['0,1,1,0.5', '0,2,1,0.5', '1,1,1,2', '1,2,1,2', '2,1,2,0.5', '2,2,2,0.5', '3,1,2,2', '3,2,2,2']);
    const results = JSON.parse(json);
    expect(results.rows).toHaveLength(8);
    expect(results.rows[5].config.numInstances).toBe(2);
    expect(results.rows[5].config.seed).toBe(2);
    expect(results.rows[5].config.routing.scorers).toEqual([
      { name: 'queue-depth', weight: 0.5 },
      { name: 'kv-utilization', weight: 1 },
    ]);
    // Seeds change the workload: the two rows of a candidate differ.
    expect(lines[1].split(',')[5]).not.toBe(lines[2].split(',')[5]);
    expect(JSON.parse(r1.stdout)).toMatchObject({ csv: one, candidates: 4, seeds: [1, 2], rows: 8 });
    expect(existsSync(`${one}.partial`)).toBe(false);
  });

  it('matches `blis run` for a row', () => {
    const [csv] = files(join(tmp, 'one.csv'));
    const row = csv.trimEnd().split('\n')[6].split(',');
    const run = JSON.parse(
      ok(['run', '--latency-model', 'blackbox', '--num-requests', '200', '--rate', '40', '--seed', '2', '--num-instances', '2', '--routing-policy', 'weighted', '--routing-scorers', 'queue-depth:0.5,kv-utilization:1', '--quiet']).stdout,
    );
    expect(row.slice(0, 2)).toEqual(['2', '2']);
    expect(Number(row[4])).toBe(run.ttft_p99_ms);
    expect(Number(row[5])).toBe(run.e2e_mean_ms);
  });

  it('resumes after being killed midway and ends with the bytes of an uninterrupted run', async () => {
    // 16 candidates x 2 seeds, one worker: long enough to be killed between two rows.
    const big = sweepFile('big.yaml', 300, '');
    writeFileSync(big, readFileSync(big, 'utf8').replace('numInstances: [1, 2]', 'numInstances: [1, 2, 3, 4]').replace('queue-depth: [0.5, 2]', 'queue-depth: [0.5, 1, 2, 4]'));
    const whole = join(tmp, 'whole.csv');
    ok(['sweep', big, '--output', whole, '--workers', '2']);
    const cut = join(tmp, 'cut.csv');
    const journal = `${cut}.partial`;
    const child = spawn(process.execPath, [BIN, 'sweep', big, '--output', cut, '--workers', '1'], { cwd: ROOT, stdio: 'ignore' });
    const exited = new Promise((r) => child.on('exit', r));
    let rows = 0;
    let done = false;
    void exited.then(() => {
      done = true;
    });
    while (rows < 3 && !done) {
      await new Promise((r) => setTimeout(r, 20));
      rows = existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').filter((l) => l !== '').length - 1 : 0;
    }
    child.kill('SIGTERM');
    await exited;
    const kept = readFileSync(journal, 'utf8').trimEnd().split('\n').length - 1;
    expect(kept).toBeGreaterThanOrEqual(3);
    expect(kept).toBeLessThan(32);
    expect(existsSync(cut)).toBe(false);
    const resumed = ok(['sweep', big, '--output', cut, '--workers', '2']);
    expect(resumed.stderr).toMatch(/resumed from/);
    expect(files(cut)).toEqual(files(whole));
    expect(existsSync(journal)).toBe(false);
  }, 240_000);

  it('refuses the journal of a changed spec unless --restart', () => {
    const out = join(tmp, 'changed.csv');
    writeFileSync(`${out}.partial`, `${JSON.stringify({ format: 'blis-sweep-journal/1', hash: 'not-this-one' })}\n`);
    const r = blis(['sweep', spec, '--output', out]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/changed\.csv\.partial: expected the journal of this sweep .*--restart/);
    ok(['sweep', spec, '--output', out, '--restart']);
    expect(files(out)).toEqual(files(join(tmp, 'one.csv')));
  });

  it('reports a bad spec with file and line, exit 2, nothing on stdout', () => {
    const bad = sweepFile('bad.yaml', 50, 'search: {kind: random, samples: 0}\n');
    const r = blis(['sweep', bad, '--output', join(tmp, 'bad.csv')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/bad\.yaml:10 search\.samples: expected/);
    const missing = blis(['sweep', '--output', join(tmp, 'x.csv')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/blis sweep: expected the spec argument/);
    expect(blis(['sweep', spec, '--output', join(tmp, 'x.csv'), '--workers', '0']).stderr).toMatch(/--workers: expected a positive integer/);
  });
});

describe('blis compare', () => {
  const flags = ['--latency-model', 'blackbox', '--num-requests', '150', '--rate', '30', '--num-instances', '2', '--quiet'];

  it('prints per-policy metrics on stdout and a table on stderr; rows match `blis run`', () => {
    const r = ok(['compare', ...flags.filter((f) => f !== '--quiet'), '--policies', 'round-robin,least-loaded', '--metrics', 'ttft_p99_ms,completed_requests', '--workers', '2']);
    const out = JSON.parse(r.stdout);
    expect(out.map((p: { policy: string }) => p.policy)).toEqual(['round-robin', 'least-loaded']);
    expect(Object.keys(out[0].metrics)).toEqual(['ttft_p99_ms', 'completed_requests']);
    expect(r.stderr).toMatch(/^policy\s+ttft_p99_ms\s+completed_requests\n-+/m);
    expect(r.stderr).toMatch(/^least-loaded\s+\d/m);
    const run = JSON.parse(ok(['run', ...flags, '--routing-policy', 'least-loaded']).stdout);
    expect(out[1].metrics.ttft_p99_ms).toBe(run.ttft_p99_ms);
    expect(out[1].per_seed).toEqual([{ seed: 42, metrics: { ttft_p99_ms: run.ttft_p99_ms, completed_requests: run.completed_requests } }]);
  });

  it('averages over --seeds, the same with 1 and 2 workers', () => {
    const args = ['compare', ...flags, '--policies', 'round-robin,weighted', '--seeds', '1,2,3'];
    const one = ok([...args, '--workers', '1']).stdout;
    expect(ok([...args, '--workers', '2']).stdout).toBe(one);
    const out = JSON.parse(one);
    const seeds = out[1].per_seed.map((s: { metrics: { ttft_p99_ms: number } }) => s.metrics.ttft_p99_ms);
    expect(out[1].per_seed.map((s: { seed: number }) => s.seed)).toEqual([1, 2, 3]);
    expect(out[1].metrics.ttft_p99_ms).toBeCloseTo((seeds[0] + seeds[1] + seeds[2]) / 3, 9);
  });

  it('runs a routing policy module on worker threads', () => {
    const dir = join(tmp, 'policy');
    mkdirSync(dir, { recursive: true });
    const mod = join(dir, 'first.mjs');
    writeFileSync(mod, "export default () => ({ name: 'first', route: () => ({ instance: 0, reason: 'always the first' }) });\n");
    const out = JSON.parse(ok(['compare', ...flags, '--policies', `round-robin,${mod}`, '--metrics', 'load_fairness.max_min_ratio,completed_requests', '--workers', '2']).stdout);
    expect(out[1].policy).toBe(mod);
    expect(out[1].metrics.completed_requests).toBe(150);
    // Everything on one instance: the fairness ratio has no finite value.
    expect(out[0].metrics['load_fairness.max_min_ratio']).not.toBe(out[1].metrics['load_fairness.max_min_ratio']);
  });

  it('runs a routing decision tree on worker threads, as `blis run --routing-policy` does', () => {
    const tree = join(tmp, 'busiest-tree.yaml');
    writeFileSync(tree, 'kind: routing\ntree: {route: most, by: instance.load}\n');
    const out = JSON.parse(ok(['compare', ...flags, '--policies', `round-robin,${tree}`, '--metrics', 'e2e_p99_ms,completed_requests', '--workers', '2']).stdout);
    const run = JSON.parse(ok(['run', ...flags, '--routing-policy', tree]).stdout);
    expect(out[1].metrics.e2e_p99_ms).toBe(run.e2e_p99_ms);
    expect(out[1].metrics.e2e_p99_ms).not.toBe(out[0].metrics.e2e_p99_ms);
  });

  it('refuses unknown policies and metrics, exit 2, nothing on stdout', () => {
    const r = blis(['compare', ...flags, '--policies', 'round-robin,no-such-policy', '--metrics', 'ttft']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/--policies: expected built-in routing policies .*found "no-such-policy"/);
    expect(blis(['compare', ...flags, '--policies', 'round-robin', '--metrics', 'ttft']).stderr).toMatch(/--metrics: expected .*found "ttft"/);
    expect(blis(['compare', ...flags]).stderr).toMatch(/--policies: expected a comma-separated list/);
  });
});
