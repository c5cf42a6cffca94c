import { describe, expect, it } from 'vitest';
import { blis } from './blis-process.js';

// The example of docs/flow-control.md, with the numbers it quotes.

const RUN = ['run', '--num-instances', '2', '--workload-spec', 'examples/workloads/flow-control-overload.yaml', '--quiet'];
type Result = { per_slo_class: Record<string, { ttft_p99_ms: number }>; gateway: Record<string, number> | null };
const run = async (...extra: string[]): Promise<Result> => {
  const r = await blis([...RUN, ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Result;
};

describe('docs/flow-control.md example', () => {
  it('holds the surplus at the gateway, most urgent band first; TTL and shedding turn 154 away', async () => {
    const [off, on, bounded] = await Promise.all([
      run(),
      run('--flow-control', '--saturation-detector', 'utilization'),
      run('--flow-control', '--saturation-detector', 'utilization', '--request-ttl', '1500000', '--max-gateway-queue-depth', '120', '--queue-shedding'),
    ]);
    const s = (r: Result, c: string) => Math.round(r.per_slo_class[c].ttft_p99_ms / 100) / 10;
    expect([s(off, 'critical'), s(on, 'critical'), s(on, 'sheddable')]).toEqual([1.6, 0.5, 2.4]);
    const g = bounded.gateway!;
    expect([g.queue_rejected, g.queue_shed, g.expired_requests]).toEqual([41, 97, 16]);
  }, 60_000);
});
