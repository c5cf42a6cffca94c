#!/usr/bin/env node
// `node bench/evaluate-warm.mjs [--tree DIR]... [--rounds N] [--parts]`: the CPU a warm
// evaluation takes in-process, per request, for the examples' own requests: a GEPA minibatch
// (examples/gepa: the three trainset scenarios, weighted routing texts) and OpenEvolve's stage 2
// (examples/openevolve: its initial program). Each `--tree` (default: this checkout) is a built
// checkout, timed in a child process of its own; trees alternate round by round, so that a
// loaded machine weighs on each alike. Prints the median CPU ms per request of each tree.
//
// `--parts` (this checkout only) splits one scenario run of each request into what a warm
// evaluation pays: validating the config, the request stream (generated, or replayed from the
// process's WorkloadMemo), preparing the run (before: parse + lazy stream; after: an already
// validated config and a replayed stream), the run itself, and its result (the full result or
// the summary evaluate reads). CPU µs per scenario run.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => args.flatMap((a, i) => (a === name ? [args[i + 1]] : []));
const trees = flag('--tree').map((t) => resolve(t));
const rounds = Number(flag('--rounds')[0] ?? 5);

/** The requests the examples send (bench/search-loop.mjs builds the same). */
function requests(root) {
  const oe = JSON.parse(readFileSync(join(root, 'examples/openevolve/scenarios.json'), 'utf8'));
  const program = readFileSync(join(root, 'examples/openevolve/initial_program.ts'), 'utf8');
  const gepa = JSON.parse(readFileSync(join(root, 'examples/gepa/scenarios.json'), 'utf8'));
  const routing = (w) => `policy: weighted\nscorers:\n  - {name: prefix-affinity, weight: 1}\n  - {name: queue-depth, weight: ${w}}\n`;
  const gepaRequest = (w) => ({ protocol: 'blis-eval/1', candidate: { kind: 'components', components: { routing: routing(w) } }, base_config: gepa.base_config ?? {}, scenarios: gepa.trainset.slice(0, 3), objectives: gepa.objectives, trace: 'summary', max_wall_ms: 270000 });
  return {
    gepa: [1, 1.5, 2, 0.5].map(gepaRequest),
    oe_stage2: [{ protocol: 'blis-eval/1', candidate: { kind: 'policy-module', text: program, language: 'typescript', policy_kind: 'routing' }, base_config: oe.base_config ?? {}, scenarios: oe.stage2, objectives: oe.objectives, trace: 'summary', max_wall_ms: 108000 }],
  };
}

/** In a child: median CPU ms per warm `evaluate()` of each request set, on the tree `root`. */
async function child(root) {
  const { evaluate } = await import(pathToFileURL(join(root, 'packages/adapters/dist/index.js')).href);
  const out = {};
  for (const [name, reqs] of Object.entries(requests(here))) {
    for (let i = 0; i < 5; i++) for (const r of reqs) await evaluate(r);
    const per = [];
    for (let b = 0; b < 5; b++) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < 4; i++) for (const r of reqs) await evaluate(r);
      const c = process.cpuUsage(c0);
      per.push((c.user + c.system) / 1000 / (4 * reqs.length));
    }
    out[name] = per.sort((a, b) => a - b)[2];
  }
  console.log(JSON.stringify(out));
}

/** CPU µs per scenario run of each part, before and after (this checkout's build). */
async function parts() {
  const imp = (p) => import(pathToFileURL(join(here, p)).href);
  const cl = await imp('packages/cluster/dist/index.js');
  const ci = await imp('packages/cluster/dist/internal.js');
  const cpu = (fn, n) => {
    for (let i = 0; i < 5; i++) fn();
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) fn();
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / n;
  };
  const weighted = { policy: 'weighted', params: {}, scorers: [{ name: 'prefix-affinity', weight: 1 }] };
  const rows = [];
  for (const [name, [req]] of Object.entries(requests(here))) {
    const inputs = req.scenarios.map((s) => ({ ...req.base_config, workload: { ...s.workload, seed: s.seeds[0] }, seed: s.seeds[0], sloTtftUs: s.slo?.ttft_us, sloE2eUs: s.slo?.e2e_us, includeRequests: false, checkInvariants: false, ...(name === 'gepa' ? { routing: weighted } : {}) }));
    const k = inputs.length;
    const n = 40;
    const memo = new ci.WorkloadMemo();
    const configs = inputs.map((i) => cl.SimulationConfigSchema.parse(i));
    const drain = (memoOrNot) => () => {
      for (const c of configs) {
        const o = ci.openSizedWorkload(c.workload, { seed: c.seed, blockSizeTokens: c.blockSizeTokens, horizonUs: c.horizonUs, memo: memoOrNot });
        while (o.source.peekArrivalUs() !== Number.POSITIVE_INFINITY) o.source.next();
      }
    };
    const row = { what: name };
    row.validate =
      cpu(() => {
        for (const i of inputs) cl.SimulationConfigSchema.safeParse(i);
      }, n) / k;
    row.stream_generated = cpu(drain(undefined), n) / k;
    row.stream_replayed = cpu(drain(memo), n) / k;
    row.prepare_before =
      cpu(() => {
        for (const i of inputs) cl.prepareSimulation(i);
      }, n) / k;
    row.prepare_after =
      cpu(() => {
        for (const c of configs) ci.prepareValidated(c, {}, { workloads: memo });
      }, n) / k;
    const before = [];
    const after = [];
    for (let r = 0; r < n; r++)
      for (const i of inputs) {
        before.push(cl.prepareSimulation(i));
        after.push(ci.prepareValidated(cl.SimulationConfigSchema.parse(i), {}, { workloads: memo }));
      }
    const each = (list, fn) => {
      const c0 = process.cpuUsage();
      for (const p of list) fn(p);
      const c = process.cpuUsage(c0);
      return (c.user + c.system) / list.length;
    };
    // Alternately, run by run: neither side's loop pays the other's garbage.
    let lazy = 0;
    let replayed = 0;
    for (let i = 0; i < before.length; i++) {
      lazy += each([before[i]], (p) => p.cluster.run());
      replayed += each([after[i]], (p) => p.cluster.run());
    }
    row.run_lazy_stream = lazy / before.length;
    row.run_replayed_stream = replayed / after.length;
    const opts = (p) => ({ sloTtftUs: p.config.sloTtftUs, sloE2eUs: p.config.sloE2eUs, includeRequests: false });
    row.full_result = each(before, (p) => ci.buildResult(p.cluster, opts(p)));
    // runPreparedSummary of a finished run is its summary: run() returns at once.
    row.summary = each(after, (p) => ci.runPreparedSummary(p));
    rows.push(row);
  }
  const keys = Object.keys(rows[0]).filter((k) => k !== 'what');
  console.log(`${'µs per scenario run'.padEnd(22)}${rows.map((r) => r.what.padStart(11)).join('')}`);
  for (const k of keys) console.log(`${k.padEnd(22)}${rows.map((r) => Math.round(r[k]).toString().padStart(11)).join('')}`);
  console.log(JSON.stringify(rows));
}

if (args[0] === '--child') await child(args[1]);
else if (args.includes('--parts')) await parts();
else {
  const list = trees.length > 0 ? trees : [here];
  const got = new Map(list.map((t) => [t, []]));
  for (let r = 0; r < rounds; r++)
    for (const t of list) {
      const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', t], { encoding: 'utf8' });
      if (p.status !== 0) throw new Error(`bench: ${t}: ${p.stderr}`);
      got.get(t).push(JSON.parse(p.stdout.trim().split('\n').pop()));
    }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const summary = list.map((t) => ({ tree: t, gepa_ms: median(got.get(t).map((x) => x.gepa)), oe_stage2_ms: median(got.get(t).map((x) => x.oe_stage2)) }));
  for (const s of summary) console.log(`${s.tree}: GEPA minibatch ${s.gepa_ms.toFixed(1)} ms CPU, OpenEvolve stage 2 ${s.oe_stage2_ms.toFixed(1)} ms CPU (median of ${rounds})`);
  console.log(JSON.stringify(summary));
}
