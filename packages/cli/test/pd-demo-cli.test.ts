import { describe, expect, it } from 'vitest';
import { blis } from './blis-process.js';

// BLIS's prefill/decode demo command, run unchanged through the `blis` process: it must be
// accepted as BLIS spells it and disaggregate every request (decider `always`).

const DEMO = [
  ...['run', '--model', 'qwen/qwen3-14b', '--num-instances', '4', '--prefill-instances', '2', '--decode-instances', '2'],
  ...['--pd-decider', 'always', '--pd-transfer-bandwidth', '25', '--pd-transfer-base-latency', '0.05', '--rate', '100', '--num-requests', '1000'],
];

describe(`blis ${DEMO.join(' ')}`, () => {
  it('exits 0; every request is prefilled and transferred, and decode drops what its KV cannot hold, as BLIS does', async () => {
    const r = await blis(DEMO);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code, r.stderr).toBe(0);
    const res = JSON.parse(r.stdout) as {
      injected_requests: number;
      completed_requests: number;
      dropped_unservable: number;
      instances: { instance_id: string; pool?: string; completed_requests: number }[];
      pd: Record<string, unknown> & { pools: Record<string, string[]>; dropped_at_decode_kv: number; disaggregated_requests: number };
    };
    expect(res.injected_requests).toBe(1000);
    expect(res.pd).toMatchObject({ local_requests: 0, transfers_initiated: 1000, transfers_completed: 1000 });
    // qwen3-14b on an H100 holds 15,909 blocks with vLLM's reserves (BLIS's count): at 100 req/s
    // the decode pods run out and drop requests, as BLIS HEAD's run of this command does (394 of
    // its 1,000, with its P/D defects and constant arrivals).
    expect(res.pd.dropped_at_decode_kv).toBeGreaterThan(0);
    expect(res.dropped_unservable).toBe(res.pd.dropped_at_decode_kv);
    expect(res.completed_requests + res.pd.dropped_at_decode_kv).toBe(1000);
    expect(res.pd.disaggregated_requests).toBe(res.completed_requests);
    expect(res.pd.pools).toEqual({ prefill: ['instance_0', 'instance_1'], decode: ['instance_2', 'instance_3'], shared: [], unassigned: [] });
    // Each pool ran one part of every request it finished: prefill all 1000, decode the completed.
    const done = (ids: string[]) => res.instances.filter((b) => ids.includes(b.instance_id)).reduce((a, b) => a + b.completed_requests, 0);
    expect(done(res.pd.pools.prefill)).toBe(1000);
    expect(done(res.pd.pools.decode)).toBe(res.completed_requests);
    expect(r.stderr).toMatch(new RegExp(`${res.completed_requests}/1000 completed`));
  });
});
