#!/usr/bin/env node
// `node bench/queue.mjs [--quick]`: what a Redis-queued sweep (BullMQ) costs against the local
// worker-thread sweep, as whole `blis` processes from the build, on a redis-server this script
// starts on a free loopback port (Debian's `redis-server`).
//
// - overhead: 200 one-request candidates (each simulation well under a millisecond), the local
//   sweep inline (`--workers 1`) against one warm `blis worker --concurrency 1`; the difference
//   in wall time per job is the queue's overhead (enqueue, fetch, lock, result, completion).
// - 64 small candidates (1,000 requests each): `blis sweep --workers 2` against the coordinator
//   with two warm `blis worker --concurrency 1` processes on the same machine.
// - the same with the two workers started together with the coordinator (cold).
// Runs alternate, medians of 3 (1 with --quick); every CSV must be the local one's bytes.
// Prints a table and the figures as JSON on stdout's last line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const quick = process.argv.includes('--quick');
const cli = join(root, 'packages/cli/dist/cli.js');
if (!existsSync(cli)) {
  console.error('bench: run `pnpm build` first');
  process.exit(2);
}
if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0) {
  console.error('bench: needs redis-server (Debian: apt-get install redis-server)');
  process.exit(2);
}

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});
const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
for (let i = 0; spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout?.trim() !== 'PONG'; i++) {
  if (i > 100) throw new Error('bench: redis-server did not start');
  await new Promise((r) => setTimeout(r, 50));
}
const url = `redis://127.0.0.1:${port}`;
const dir = mkdtempSync(join(tmpdir(), 'blis-bench-queue-'));

function spec(name, requests, values) {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `base:
  latencyModel: blackbox
  numInstances: 2
  routing: {policy: weighted, scorers: [{name: queue-depth, weight: 1}, {name: kv-utilization, weight: 1}]}
  workload: {kind: synthetic, numRequests: ${requests}, rate: 20}
seeds: [1]
parameters:
  routing.scorers.queue-depth: [${values.join(', ')}]
metrics: [ttft_p99_ms, e2e_mean_ms]
`,
  );
  return file;
}

function timed(args) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [cli, ...args, '--quiet'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`bench: blis ${args.join(' ')} exited ${code}`))));
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function compare(name, file, localWorkers, queueWorkers, runs) {
  const workers = Array.from({ length: queueWorkers }, () => spawn(process.execPath, [cli, 'worker', '--queue', url, '--concurrency', '1', '--quiet'], { cwd: root, stdio: 'ignore' }));
  const local = [];
  const queued = [];
  const ref = join(dir, `${name}-local.csv`);
  try {
    // One queued warm-up, so that the workers' threads have loaded and compiled the simulator.
    await timed(['sweep', file, '--output', join(dir, `${name}-warm.csv`), '--queue', url]);
    for (let i = 0; i < runs; i++) {
      local.push(await timed(['sweep', file, '--output', ref, '--workers', String(localWorkers)]));
      const out = join(dir, `${name}-queued-${i}.csv`);
      queued.push(await timed(['sweep', file, '--output', out, '--queue', url]));
      if (readFileSync(out, 'utf8') !== readFileSync(ref, 'utf8')) throw new Error(`bench: ${name}: the queued CSV differs from the local one`);
    }
  } finally {
    for (const w of workers) w.kill('SIGKILL');
  }
  return { local_ms: median(local), queued_ms: median(queued) };
}

const runs = quick ? 1 : 3;
const tiny = Array.from({ length: quick ? 40 : 200 }, (_, i) => (i + 1) / 100);
const overhead = await compare('overhead', spec('overhead', 1, tiny), 1, 1, runs);
overhead.jobs = tiny.length;
overhead.overhead_ms_per_job = (overhead.queued_ms - overhead.local_ms) / tiny.length;
const small = Array.from({ length: 64 }, (_, i) => (i + 1) / 16);
const file64 = spec('sweep64', quick ? 100 : 1000, small);
const sweep64 = await compare('sweep64', file64, 2, 2, runs);
sweep64.ratio = sweep64.queued_ms / sweep64.local_ms;

// Cold: the two workers start with the coordinator, so their start-up and the threads' first
// compilation count too (what a one-off sweep on fresh workers pays).
const cold = [];
for (let i = 0; i < runs; i++) {
  const workers = Array.from({ length: 2 }, () => spawn(process.execPath, [cli, 'worker', '--queue', url, '--concurrency', '1', '--quiet'], { cwd: root, stdio: 'ignore' }));
  try {
    cold.push(await timed(['sweep', file64, '--output', join(dir, `cold-${i}.csv`), '--queue', url]));
  } finally {
    for (const w of workers) w.kill('SIGKILL');
  }
}
sweep64.cold_queued_ms = median(cold);
sweep64.cold_ratio = sweep64.cold_queued_ms / sweep64.local_ms;
redis.kill('SIGTERM');

console.log('| scenario | local | queued | figure |');
console.log('|---|---|---|---|');
console.log(`| ${overhead.jobs} one-request jobs, 1 worker | ${overhead.local_ms.toFixed(0)} ms | ${overhead.queued_ms.toFixed(0)} ms | ${overhead.overhead_ms_per_job.toFixed(2)} ms per job |`);
console.log(`| 64 candidates x 1,000 requests, 2 warm workers | ${sweep64.local_ms.toFixed(0)} ms | ${sweep64.queued_ms.toFixed(0)} ms | ${sweep64.ratio.toFixed(2)}x |`);
console.log(`| the same, 2 workers started with the coordinator | ${sweep64.local_ms.toFixed(0)} ms | ${sweep64.cold_queued_ms.toFixed(0)} ms | ${sweep64.cold_ratio.toFixed(2)}x |`);
console.log(JSON.stringify({ overhead, sweep64 }));
