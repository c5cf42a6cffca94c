#!/usr/bin/env node
// `node bench/evaluate.mjs [--quick]`: what one `blis-eval/1` evaluation costs a search.
//
// - in-process: `evaluate(request)` from the built @blis/adapters on a 1,000-request scenario
//   (median of 15 calls after 3 warm-ups; the target is under 150 ms);
// - serve: the same request sent 15 times through one `blis evaluate --serve` process (the
//   per-request round trip once Node has started);
// - one-shot: `blis evaluate` as a fresh process per request (what a naive shim pays).
// Prints a table and the figures as JSON on stdout's last line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const quick = process.argv.includes('--quick');
const dist = join(root, 'packages/adapters/dist/index.js');
const cli = join(root, 'packages/cli/dist/cli.js');
if (!existsSync(dist) || !existsSync(cli)) {
  console.error('bench: run `pnpm build` first');
  process.exit(2);
}

export const REQUEST = {
  protocol: 'blis-eval/1',
  candidate: { kind: 'components', components: { routing: 'policy: weighted\nscorers:\n  - {name: queue-depth, weight: 2}\n  - {name: kv-utilization, weight: 1}\n' } },
  base_config: { numInstances: 4, model: 'meta-llama/llama-3.1-8b-instruct' },
  scenarios: [{ id: 'chat-1k', workload: { kind: 'synthetic', numRequests: 1000, rate: 30, promptTokens: 512, outputTokens: 128 }, seeds: [1], slo: { ttft_us: 500000 } }],
  objectives: { weights: { p99_ttft: 0.5, throughput: 0.3, slo_attainment: 0.2 } },
  trace: 'summary',
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const [warm, runs] = quick ? [0, 1] : [3, 15];

const { evaluate } = await import(pathToFileURL(dist).href);
const inProc = [];
for (let i = 0; i < warm + runs; i++) {
  const t0 = performance.now();
  const r = await evaluate(REQUEST);
  if (r.status !== 'ok') throw new Error(`bench: evaluate answered ${r.status}`);
  if (i >= warm) inProc.push(performance.now() - t0);
}

const serveTimes = await new Promise((resolve, reject) => {
  const child = spawn(process.execPath, [cli, 'evaluate', '--serve'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const times = [];
  let buf = '';
  let t0 = performance.now();
  let sent = 0;
  const send = () => {
    t0 = performance.now();
    sent++;
    child.stdin.write(`${JSON.stringify(REQUEST)}\n`);
  };
  child.stdout.on('data', (d) => {
    buf += d.toString();
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      buf = buf.slice(nl + 1);
      if (sent > warm) times.push(performance.now() - t0);
      if (sent < warm + runs) send();
      else child.stdin.end();
    }
  });
  child.on('error', reject);
  child.on('close', () => resolve(times));
  send();
});

const oneShot = [];
for (let i = 0; i < (quick ? 1 : 5); i++) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, 'evaluate'], { cwd: root, input: JSON.stringify(REQUEST), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bench: blis evaluate exited ${r.status}: ${r.stderr}`);
  oneShot.push(performance.now() - t0);
}

const out = { in_process_ms: median(inProc), serve_round_trip_ms: median(serveTimes), one_shot_process_ms: median(oneShot), requests_per_scenario: 1000 };
console.log('evaluate (1,000-request scenario, trace summary)   median ms');
console.log(`  in-process evaluate()                            ${out.in_process_ms.toFixed(1)}`);
console.log(`  blis evaluate --serve, per request               ${out.serve_round_trip_ms.toFixed(1)}`);
console.log(`  blis evaluate, one process per request           ${out.one_shot_process_ms.toFixed(1)}`);
console.log(JSON.stringify(out));
