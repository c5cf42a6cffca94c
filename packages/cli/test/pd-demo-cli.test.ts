import { describe, expect, it } from 'vitest';
import { blis } from './blis-process.js';

// BLIS's prefill/decode demo command, run unchanged through the `blis` process: it must be
// accepted as BLIS spells it and disaggregate every request (decider `always`).

const DEMO = [
  ...['run', '--model', 'qwen/qwen3-14b', '--num-instances', '4', '--prefill-instances', '2', '--decode-instances', '2'],
  ...['--pd-decider', 'always', '--pd-transfer-bandwidth', '25', '--pd-transfer-base-latency', '0.05', '--rate', '100', '--num-requests', '1000'],
];

describe(`blis ${DEMO.join(' ')}`, () => {
  it('exits 0 and disaggregates all 1000 requests over 2 prefill and 2 decode pods', async () => {
    const r = await blis(DEMO);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code, r.stderr).toBe(0);
    const res = JSON.parse(r.stdout) as {
      injected_requests: number;
      completed_requests: number;
      instances: { instance_id: string; pool?: string; completed_requests: number }[];
      pd: Record<string, unknown> & { pools: Record<string, string[]> };
    };
    expect(res.injected_requests).toBe(1000);
    expect(res.completed_requests).toBe(1000);
    expect(res.pd).toMatchObject({ disaggregated_requests: 1000, local_requests: 0, dropped_at_decode_kv: 0, transfers_initiated: 1000, transfers_completed: 1000 });
    expect(res.pd.pools).toEqual({ prefill: ['instance_0', 'instance_1'], decode: ['instance_2', 'instance_3'], shared: [], unassigned: [] });
    // Each pool ran one part of every request.
    const done = (ids: string[]) => res.instances.filter((b) => ids.includes(b.instance_id)).reduce((a, b) => a + b.completed_requests, 0);
    expect(done(res.pd.pools.prefill)).toBe(1000);
    expect(done(res.pd.pools.decode)).toBe(1000);
    expect(r.stderr).toMatch(/1000\/1000 completed/);
  });
});
