#!/usr/bin/env node
// `node bench/search-loop.mjs [--quick]`: what a policy search pays per candidate, on the
// examples' own requests (examples/openevolve: the cascade's three stages for its initial
// program; examples/gepa: a three-scenario minibatch of its seed candidate).
//
// - simulate: `simulate()` of the stage's scenarios in-process (the floor);
// - warm: one `blis evaluate --serve` (the built bundle), the same request again (compile cached),
//   with `trace: summary` and with `trace: none` (the difference is the summary's cost);
// - fresh: a new candidate text each request (compiled each time);
// - cold: `blis evaluate` as one process per request, and `node -e 0` for scale;
// - candidates/s: distinct candidates through the whole cascade (stage 1, 2, 3) on one child.
// Prints a table and the figures as JSON on stdout's last line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const quick = process.argv.includes('--quick');
const cli = join(root, 'packages/cli/dist/cli.cjs');
const clusterDist = join(root, 'packages/cluster/dist/index.js');
if (!existsSync(cli) || !existsSync(clusterDist)) {
  console.error('bench: run `pnpm build` first');
  process.exit(2);
}
const { simulate } = await import(pathToFileURL(clusterDist).href);

const oe = JSON.parse(readFileSync(join(root, 'examples/openevolve/scenarios.json'), 'utf8'));
const program = readFileSync(join(root, 'examples/openevolve/initial_program.ts'), 'utf8');
const stageScenarios = { stage1: oe.stage1, stage2: oe.stage2, stage3: [...oe.stage2, ...oe.stage3] };
/** The request examples/openevolve/evaluator.py builds (build_request), for `text`. */
const oeRequest = (stage, text, trace = 'summary') => ({
  protocol: 'blis-eval/1',
  candidate: { kind: 'policy-module', text, language: 'typescript', policy_kind: 'routing' },
  base_config: oe.base_config ?? {},
  scenarios: stageScenarios[stage],
  objectives: oe.objectives,
  trace,
  max_wall_ms: 108000,
});
const gepa = JSON.parse(readFileSync(join(root, 'examples/gepa/scenarios.json'), 'utf8'));
const gepaCandidate = (w) => ({ routing: `policy: weighted\nscorers:\n  - {name: prefix-affinity, weight: 1}\n  - {name: queue-depth, weight: ${w}}\n`, admission: 'policy: always-admit\n' });
const gepaRequest = (w, trace = 'summary') => ({
  protocol: 'blis-eval/1',
  candidate: { kind: 'components', components: gepaCandidate(w) },
  base_config: gepa.base_config ?? {},
  scenarios: gepa.trainset.slice(0, 3),
  objectives: gepa.objectives,
  trace,
  max_wall_ms: 270000,
});

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const rounds = quick ? 3 : 11;

/** One `--serve` child: `ask(request)` resolves with the response line's round trip in ms. */
function serveChild() {
  const child = spawn(process.execPath, [cli, 'evaluate', '--serve'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = [];
  let buf = '';
  child.stdout.on('data', (d) => {
    buf += d.toString();
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const w = waiting.shift();
      const r = JSON.parse(line);
      if (r.status !== 'ok') w.reject(new Error(`bench: evaluate answered ${r.status}: ${JSON.stringify(r.error)}`));
      else w.resolve(performance.now() - w.t0);
    }
  });
  return {
    ask: (request) => new Promise((resolve, reject) => {
      waiting.push({ resolve, reject, t0: performance.now() });
      child.stdin.write(`${JSON.stringify(request)}\n`);
    }),
    close: () => new Promise((resolve) => { child.on('close', resolve); child.stdin.end(); }),
  };
}

function simulateMs(request) {
  const times = [];
  for (let i = 0; i < rounds + 2; i++) {
    const t0 = performance.now();
    for (const s of request.scenarios) for (const seed of s.seeds ?? [42]) simulate({ ...request.base_config, ...(s.config ?? {}), workload: s.workload, ...(s.horizon_us !== undefined ? { horizonUs: s.horizon_us } : {}), seed, includeRequests: false, checkInvariants: false });
    if (i >= 2) times.push(performance.now() - t0);
  }
  return median(times);
}

async function warmMs(serve, make) {
  const times = [];
  for (let i = 0; i < rounds + 2; i++) {
    const t = await serve.ask(make(i));
    if (i >= 2) times.push(t);
  }
  return median(times);
}

function coldMs(args, input) {
  const times = [];
  for (let i = 0; i < (quick ? 1 : 5); i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: root, input, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`bench: ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    times.push(performance.now() - t0);
  }
  return median(times);
}

const serve = serveChild();
const rows = [];
for (const stage of ['stage1', 'stage2', 'stage3']) {
  const sim = simulateMs(oeRequest(stage, program));
  const warm = await warmMs(serve, () => oeRequest(stage, program));
  const warmNone = await warmMs(serve, () => oeRequest(stage, program, 'none'));
  const fresh = await warmMs(serve, (i) => oeRequest(stage, `${program}\n// variant ${stage} ${i} ${performance.now()}\n`));
  rows.push({ what: `openevolve ${stage}`, simulate_ms: sim, warm_ms: warm, warm_trace_none_ms: warmNone, fresh_candidate_ms: fresh, warm_over_simulate: warm / sim });
}
{
  const sim = simulateMs(gepaRequest(1));
  const warm = await warmMs(serve, () => gepaRequest(1));
  const warmNone = await warmMs(serve, () => gepaRequest(1, 'none'));
  const fresh = await warmMs(serve, (i) => gepaRequest(1 + i / 10));
  rows.push({ what: 'gepa minibatch of 3', simulate_ms: sim, warm_ms: warm, warm_trace_none_ms: warmNone, fresh_candidate_ms: fresh, warm_over_simulate: warm / sim });
}

// The cascade as a search runs it: each new program through stages 1, 2 and 3 on one child.
const cascadeN = quick ? 3 : 10;
const t0 = performance.now();
for (let i = 0; i < cascadeN; i++) {
  const text = `${program}\n// candidate ${i}\n`;
  for (const stage of ['stage1', 'stage2', 'stage3']) await serve.ask(oeRequest(stage, text));
}
const cascadePerSec = cascadeN / ((performance.now() - t0) / 1000);
const gepaN = quick ? 3 : 10;
const t1 = performance.now();
for (let i = 0; i < gepaN; i++) await serve.ask(gepaRequest(2 + i / 7));
const gepaPerSec = gepaN / ((performance.now() - t1) / 1000);
await serve.close();

const nodeMs = coldMs(['-e', '0'], '');
const coldStage1 = coldMs([cli, 'evaluate'], JSON.stringify(oeRequest('stage1', program)));

console.log('search loop (medians, ms)        simulate   warm  trace none  fresh cand.  warm/simulate');
for (const r of rows)
  console.log(`  ${r.what.padEnd(30)} ${r.simulate_ms.toFixed(1).padStart(8)} ${r.warm_ms.toFixed(1).padStart(6)} ${r.warm_trace_none_ms.toFixed(1).padStart(11)} ${r.fresh_candidate_ms.toFixed(1).padStart(12)} ${r.warm_over_simulate.toFixed(2).padStart(14)}`);
console.log(`  cold: blis evaluate (stage 1) one process ${coldStage1.toFixed(1)} ms; node -e 0 ${nodeMs.toFixed(1)} ms (${(coldStage1 / nodeMs).toFixed(2)}x)`);
console.log(`  candidates/s through the OpenEvolve cascade (3 stages) ${cascadePerSec.toFixed(2)}; GEPA minibatches/s ${gepaPerSec.toFixed(2)}`);
console.log(JSON.stringify({ rows, cold_stage1_ms: coldStage1, node_e0_ms: nodeMs, cascade_candidates_per_s: cascadePerSec, gepa_minibatches_per_s: gepaPerSec }));
