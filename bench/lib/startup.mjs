// The start-up benchmark: what a caller that spawns `blis` per candidate pays. Each command runs
// as a fresh process, timed from spawn to exit, interleaved with `node -e 0` (Node's own start-up
// on this machine at this moment) so that the ratios hold under a varying machine load. Reported:
// the median wall time of each command and its ratio to the median of `node -e 0`.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

const MODEL = 'meta-llama/llama-3.1-8b-instruct';

/**
 * The commands, with the ratio to `node -e 0` each should stay within (issue #23). `replay` is
 * the `azure-code-8` scenario's command line (its `args`, given by the caller).
 */
export const STARTUP_BENCH = {
  name: 'startup',
  commands: [
    { name: 'blis --version', args: ['--version'], target: 2 },
    { name: 'blis run, 1,000 requests', args: ['run', '--model', MODEL, '--num-requests', '1000', '--quiet'], target: 3 },
    { name: 'blis replay azure-code-8', scenario: 'azure-code-8', target: 6 },
  ],
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function timed(root, args) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`bench: node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

/**
 * Median wall ms of `node -e 0` and of each command over `runs` rounds (one process of each per
 * round), and each command's ratio to `node -e 0`. `cli` is the built entry to time;
 * `scenarioArgs(name)` gives a bench scenario's `blis` arguments.
 */
export function benchStartup(root, runs, cli, scenarioArgs) {
  const commands = STARTUP_BENCH.commands.map((c) => ({ ...c, args: c.args ?? [...scenarioArgs(c.scenario), '--quiet'] }));
  const nodeMs = [];
  const ms = commands.map(() => []);
  // One unmeasured round first: the file cache then holds the CLI and the trace for every run.
  for (let i = -1; i < runs; i++) {
    const base = timed(root, ['-e', '0']);
    const each = commands.map((c) => timed(root, [cli, ...c.args]));
    if (i < 0) continue;
    nodeMs.push(base);
    for (const [j, t] of each.entries()) ms[j].push(t);
  }
  const node = median(nodeMs);
  return {
    name: STARTUP_BENCH.name,
    runs,
    nodeMs: node,
    commands: commands.map((c, j) => {
      const m = median(ms[j]);
      return { name: c.name, ms: m, ratio: m / node, target: c.target, met: m / node <= c.target };
    }),
  };
}
