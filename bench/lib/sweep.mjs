// The sweep benchmark: `examples/sweep/routing-weights.yaml` (16 candidates x 10,000 requests)
// through the built CLI, with 1 worker and with 2, alternating, each run a fresh process timed
// from spawn to exit. The CSVs of every run must be the same bytes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

export const SWEEP_BENCH = { name: 'sweep-16x10k', spec: 'examples/sweep/routing-weights.yaml', candidates: 16, requests: 10_000, workers: [1, 2] };

/** Median wall seconds per worker count over `runs` alternating runs, and their ratio. */
export function benchSweep(root, runs) {
  const dir = mkdtempSync(join(tmpdir(), 'blis-bench-sweep-'));
  const walls = Object.fromEntries(SWEEP_BENCH.workers.map((w) => [w, []]));
  let reference;
  try {
    for (let i = 0; i < runs; i++) {
      for (const w of SWEEP_BENCH.workers) {
        const out = join(dir, `w${w}-${i}.csv`);
        const t0 = performance.now();
        const r = spawnSync(process.execPath, [join(root, 'packages/cli/dist/cli.js'), 'sweep', SWEEP_BENCH.spec, '--output', out, '--workers', String(w), '--quiet'], { cwd: root, encoding: 'utf8' });
        walls[w].push((performance.now() - t0) / 1000);
        if (r.status !== 0) throw new Error(`bench: sweep --workers ${w} exited ${r.status}: ${r.stderr}`);
        const csv = readFileSync(out, 'utf8');
        reference ??= csv;
        if (csv !== reference) throw new Error(`bench: sweep --workers ${w} wrote different CSV bytes`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  const byWorkers = Object.fromEntries(SWEEP_BENCH.workers.map((w) => [w, { wallS: median(walls[w]), runs: walls[w] }]));
  return { name: SWEEP_BENCH.name, candidates: SWEEP_BENCH.candidates, requests: SWEEP_BENCH.requests, byWorkers, ratio: byWorkers[2].wallS / byWorkers[1].wallS };
}
