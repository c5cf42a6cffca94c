#!/usr/bin/env node
// `pnpm bench [--quick] [--only NAME,...] [--no-cli] [--no-micro] [--cli FILE]`
//
// Runs the named scenarios of bench/scenarios.mjs twice over: in-process through `simulate()`
// (wall time of the simulation alone, median of several runs after a warm-up, in a fresh
// process per scenario so each reports its own peak RSS) and as `blis` CLI processes (wall
// time including Node start-up, peak RSS of the process). Then the start-up group (`blis` as a
// fresh process against `node -e 0`, lib/startup.mjs) and micro-benchmarks. Prints a table
// and writes the same figures as JSON to bench/results/<date>.json.
//
// Benchmarks measure the built packages (dist/), as users run them: `pnpm build` first (done
// here when a dist is missing). `--quick` runs the small scenarios once each: CI uses it to
// prove the suite works, not to judge speed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { STARTUP_BENCH, benchStartup } from './lib/startup.mjs';
import { SWEEP_BENCH, benchSweep } from './lib/sweep.mjs';
import { SCENARIOS, repetitionsFor } from './scenarios.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const noCli = argv.includes('--no-cli');
const noMicro = argv.includes('--no-micro');
const onlyIdx = argv.indexOf('--only');
const only = onlyIdx >= 0 ? new Set((argv[onlyIdx + 1] ?? '').split(',')) : undefined;
// Another build of the CLI to time in the start-up group (e.g. an older one, for before/after).
const cliIdx = argv.indexOf('--cli');
const startupCli = cliIdx >= 0 ? argv[cliIdx + 1] : undefined;
for (const a of argv) {
  if (a.startsWith('--') && !['--quick', '--no-cli', '--no-micro', '--only', '--cli'].includes(a)) {
    console.error(`bench: unknown option ${a} (expected --quick, --only NAME,..., --no-cli, --no-micro, --cli FILE)`);
    process.exit(2);
  }
}

const dists = ['engine', 'kvcache', 'latency', 'policies', 'workload', 'trace', 'cluster', 'adapters', 'cli'].map((p) => join(root, 'packages', p, 'dist', 'index.js'));
if (dists.some((d) => !existsSync(d))) {
  console.error('bench: building the packages first (pnpm build)');
  const b = spawnSync('pnpm', ['build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

const scenarios = SCENARIOS.filter((s) => (only ? only.has(s.name) : quick ? s.quick : true));
// The sweep benchmark (16 simulations per run) is left out of --quick.
const sweep = only ? only.has(SWEEP_BENCH.name) : !quick;
const startup = only ? only.has(STARTUP_BENCH.name) : true;
if (scenarios.length === 0 && !sweep && !startup) {
  console.error(`bench: no scenario matches (known: ${[...SCENARIOS.map((s) => s.name), SWEEP_BENCH.name, STARTUP_BENCH.name].join(', ')})`);
  process.exit(2);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const mib = (kib) => kib / 1024;

function runChild(args, env = {}) {
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...env } });
  if (r.status !== 0) {
    console.error(r.stderr);
    throw new Error(`bench: ${args.join(' ')} exited ${r.status}`);
  }
  return r.stdout;
}

function inProcess(s) {
  const { warmup, runs } = quick ? { warmup: 0, runs: 1 } : repetitionsFor(s);
  const out = JSON.parse(runChild([join(root, 'bench/lib/in-process.mjs'), s.name, String(warmup), String(runs)]));
  if (out.completed <= 0) throw new Error(`bench: ${s.name} completed no requests`);
  const wallS = median(out.times) / 1000;
  return { wallS, runs: out.times.length, completed: out.completed, reqPerS: s.requests / wallS, peakRssMiB: mib(out.peakRssKiB) };
}

function cliProcess(s) {
  const { runs } = quick ? { runs: 1 } : repetitionsFor(s);
  const rssFile = join(tmpdir(), `blis-bench-rss-${process.pid}`);
  const walls = [];
  let peak = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const stdout = runChild(['--require', join(root, 'bench/lib/rss-probe.cjs'), join(root, 'packages/cli/dist/cli.js'), ...s.args, '--quiet'], { BLIS_BENCH_RSS_FILE: rssFile });
    walls.push((performance.now() - t0) / 1000);
    JSON.parse(stdout); // the CLI must have printed a complete result
    peak = Math.max(peak, Number(readFileSync(rssFile, 'utf8')));
  }
  rmSync(rssFile, { force: true });
  const wallS = median(walls);
  return { wallS, runs, reqPerS: s.requests / wallS, peakRssMiB: mib(peak) };
}

const fmt = (x, d) => x.toFixed(d);
const pad = (s, n, right = false) => (right ? String(s).padEnd(n) : String(s).padStart(n));
function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => pad(c, widths[i], i === 0)).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const results = { date: new Date().toISOString(), machine: { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memGiB: +(totalmem() / 2 ** 30).toFixed(1), platform: `${process.platform}-${process.arch}` }, quick, scenarios: [], micro: [] };

console.error(`bench: ${scenarios.length} scenario(s)${quick ? ' (quick)' : ''} on ${results.machine.cpus}x ${results.machine.cpuModel}, node ${process.version}`);
for (const s of scenarios) {
  console.error(`bench: ${s.name} in-process...`);
  const ip = inProcess(s);
  let cli;
  if (!noCli) {
    console.error(`bench: ${s.name} CLI...`);
    cli = cliProcess(s);
  }
  results.scenarios.push({ name: s.name, requests: s.requests, instances: s.instances, note: s.note, inProcess: ip, cli });
}
if (sweep) {
  console.error(`bench: ${SWEEP_BENCH.name} (blis sweep ${SWEEP_BENCH.spec}, ${SWEEP_BENCH.workers.join(' vs ')} workers)...`);
  results.sweep = benchSweep(root, 3);
}
if (startup) {
  const cli = startupCli ?? join(root, 'packages/cli/dist/cli.js');
  console.error(`bench: ${STARTUP_BENCH.name} (${cli} against node -e 0)...`);
  const argsOf = (name) => SCENARIOS.find((x) => x.name === name).args;
  results.startup = benchStartup(root, quick ? 1 : 11, cli, argsOf);
}
if (!noMicro) {
  console.error('bench: micro-benchmarks...');
  results.micro = JSON.parse(runChild([join(root, 'bench/lib/micro.mjs'), ...(quick ? ['--quick'] : [])])).map(({ checksum, ...m }) => m);
}

const byName = new Map(results.scenarios.map((s) => [s.name, s]));
const ratio = (a, b) => {
  const x = byName.get(a)?.inProcess;
  const y = byName.get(b)?.inProcess;
  return x && y ? x.wallS / y.wallS : undefined;
};
results.scaling = {
  '100k/10k': ratio('100k-16', '10k-4'),
  '1m/100k': ratio('1m-32', '100k-16'),
  '100k/10k at 4 instances': ratio('100k-4', '10k-4'),
};
results.traceCost = { decisions: ratio('10k-4-decisions', '10k-4') };

const rows = results.scenarios.map((s) => [
  s.name,
  s.requests.toLocaleString('en-US'),
  s.instances,
  fmt(s.inProcess.wallS, 3),
  Math.round(s.inProcess.reqPerS).toLocaleString('en-US'),
  fmt(s.inProcess.peakRssMiB, 0),
  s.cli ? fmt(s.cli.wallS, 3) : '-',
  s.cli ? fmt(s.cli.peakRssMiB, 0) : '-',
]);
if (rows.length > 0) console.log(table(['scenario', 'requests', 'instances', 'wall s', 'req/wall-s', 'peak RSS MiB', 'CLI wall s', 'CLI RSS MiB'], rows));
if (results.sweep !== undefined) {
  const sw = results.sweep;
  console.log(table(['sweep', 'runs', '1 worker wall s', '2 workers wall s', 'ratio'], [[`${sw.name} (${sw.candidates} x ${sw.requests.toLocaleString('en-US')})`, sw.byWorkers[1].runs.length, fmt(sw.byWorkers[1].wallS, 2), fmt(sw.byWorkers[2].wallS, 2), `${fmt(sw.ratio, 2)}x`]]));
}
if (results.startup !== undefined) {
  const st = results.startup;
  console.log(
    table(
      ['start-up (median of ' + st.runs + ')', 'wall ms', 'x node -e 0', 'target'],
      [['node -e 0', fmt(st.nodeMs, 1), '1.00', ''], ...st.commands.map((c) => [c.name, fmt(c.ms, 1), fmt(c.ratio, 2), `${c.target}x ${c.met ? 'met' : 'missed'}`])],
    ),
  );
}
for (const [k, v] of Object.entries(results.scaling)) if (v !== undefined) console.log(`scaling ${k}: ${v.toFixed(1)}x wall for 10x requests`);
if (results.traceCost.decisions !== undefined) console.log(`tracing: --trace-level decisions costs ${results.traceCost.decisions.toFixed(2)}x the untraced 10k-4 wall`);
if (results.micro.length > 0) {
  console.log('');
  console.log(table(['micro-benchmark', 'ops', 'ns/op'], results.micro.map((m) => [m.name, m.ops.toLocaleString('en-US'), fmt(m.nsPerOp, 1)])));
}

const dir = join(root, 'bench/results');
mkdirSync(dir, { recursive: true });
// A results file of the same date (often committed, and quoted in README.md) is never
// overwritten: a later run of the day gets the next free suffix.
const stem = `${quick ? 'quick-' : ''}${results.date.slice(0, 10)}`;
let file = join(dir, `${stem}.json`);
for (let n = 2; existsSync(file); n++) file = join(dir, `${stem}-${n}.json`);
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`, { flag: 'wx' });
console.error(`bench: wrote ${file}`);
