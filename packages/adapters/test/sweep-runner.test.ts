import { describe, expect, it } from 'vitest';
import type { SweepTask } from '../src/sweep/sweep-task.js';
import { runTasks, startSweepPool } from '../src/sweep/sweep-runner.js';

// runTasks with several workers runs tasks on pool threads: the rows must be those of an inline
// run, in task order, and a failure on any thread must name its task.

function tasks(n: number, broken?: number): SweepTask[] {
  return Array.from({ length: n }, (_, i) => ({
    candidate: i,
    seed: 3,
    config: { seed: 3, numInstances: 1 + (i % 3), latencyModel: 'blackbox', workload: { kind: 'synthetic', numRequests: 40, rate: 10 + i } },
    metrics: ['ttft_mean_ms', 'completed_requests', 'responses_per_sec'],
    ...(i === broken ? { routingModule: '/nonexistent/blis-routing-policy.mjs' } : {}),
  }));
}

describe('runTasks', () => {
  it('gives the inline rows, in task order, with 1, 2 and 3 workers; onRow sees each task once', async () => {
    const inline = await runTasks(tasks(7), { workers: 1 });
    expect(inline.map((r) => r.candidate)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const workers of [2, 3]) {
      const seen: number[] = [];
      const rows = await runTasks(tasks(7), { workers, onRow: (r) => seen.push(r.candidate) });
      expect(rows).toEqual(inline);
      expect(seen.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    }
  }, 60_000);

  it('names the failing task', async () => {
    for (const broken of [0, 5]) {
      await expect(runTasks(tasks(6, broken), { workers: 2 })).rejects.toThrow(new RegExp(`^candidate ${broken}, seed 3: `));
    }
  }, 60_000);

  it('runs on threads started beforehand, and leaves them to the caller', async () => {
    const inline = await runTasks(tasks(5), { workers: 1 });
    const pool = await startSweepPool(2);
    try {
      expect(await runTasks(tasks(5), { workers: 2, pool })).toEqual(inline);
      // Still alive: a second batch runs on the same threads.
      expect(await runTasks(tasks(5), { workers: 2, pool })).toEqual(inline);
    } finally {
      await pool.destroy();
    }
  }, 60_000);
});
