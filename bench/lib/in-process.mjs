// Child process for one in-process measurement: runs a scenario's `simulate()` (warm-up runs
// first, then the measured ones) and prints one JSON line with every wall time and the peak RSS.
// A fresh process per scenario keeps one scenario's heap out of the next one's RSS figure.
import { performance } from 'node:perf_hooks';
import { simulate } from '../../packages/cluster/dist/index.js';
import { SCENARIOS } from '../scenarios.mjs';

const [name, warmupArg, runsArg] = process.argv.slice(2);
const scenario = SCENARIOS.find((s) => s.name === name);
if (!scenario) {
  console.error(`unknown scenario ${name}`);
  process.exit(2);
}
const warmup = Number(warmupArg);
const runs = Number(runsArg);

const times = [];
let completed = 0;
for (let i = 0; i < warmup + runs; i++) {
  const t0 = performance.now();
  const result = simulate(scenario.config);
  const ms = performance.now() - t0;
  if (i >= warmup) times.push(ms);
  completed = result.completed_requests;
}
process.stdout.write(`${JSON.stringify({ times, completed, peakRssKiB: process.resourceUsage().maxRSS })}\n`);
